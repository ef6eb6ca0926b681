/**
 * What every room of the store shares and depends on nothing of the store: its settings ({@link
 * dev.dra.sidecar.store.config.StoreConfig}) and its log category ({@link dev.dra.sidecar.store.config.StoreLog}).
 */
package dev.dra.sidecar.store.config;
