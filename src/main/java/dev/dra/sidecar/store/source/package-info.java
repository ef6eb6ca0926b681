/**
 * Where the store finds its metadata files: one {@link dev.dra.sidecar.store.source.FileSource} per store, the
 * container's own tree or the files a node's CDI specs name, each scan answering with the files it found
 * ({@link dev.dra.sidecar.store.source.MetadataFileRef}) and the directories to watch. Sources read, never write,
 * and know nothing of how the files are tracked, read or served.
 */
package dev.dra.sidecar.store.source;
