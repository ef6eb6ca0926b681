/**
 * Every problem the API answers with ({@link dev.dra.sidecar.api.problem.ProblemType}), its RFC 9457 body
 * ({@link dev.dra.sidecar.api.problem.Problem}), the exception that carries one out of a resource
 * ({@link dev.dra.sidecar.api.problem.ApiException}), and how a Vert.x handler sends one
 * ({@link dev.dra.sidecar.api.problem.RoutedProblems}).
 */
package dev.dra.sidecar.api.problem;
