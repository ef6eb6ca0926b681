/**
 * The bounds on what clients can make the API hold at once: waiting long polls
 * ({@link dev.dra.sidecar.api.admission.LongPollAdmission}) and request bodies being read
 * ({@link dev.dra.sidecar.api.admission.RequestBodyAdmission}), each refusing what is past it and counting the
 * refusals.
 */
package dev.dra.sidecar.api.admission;
