package dev.dra.sidecar.store.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.decode.MetadataDecodeException;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.store.config.StoreLog;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Node mode: finds the metadata files the way the container runtime does, from the CDI specs the drivers write.
 * A spec counts only through its mounts ({@code containerEdits.mounts} of the spec and of each device) whose
 * {@code containerPath} is a metadata file of the container's tree,
 * {@code <container root>/resourceclaims/<claim>/<request>/<driver>-metadata.json} or the same under
 * {@code resourceclaimtemplates}; the mount's {@code hostPath} is the file read, and the container path is what the
 * API shows. Nothing else of a driver's layout is assumed: spec file names, CDI device names and host directories
 * are not parsed. Specs are the {@code .json} files of the directory (the form drivers' helpers write), each read
 * only up to the store's file size limit. Nothing is ever written.
 */
final class CdiSpecScanner implements FileSource {

    private static final Logger LOG = Logger.getLogger(StoreLog.CATEGORY);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path cdiDir;
    private final Path containerRoot;
    private final BoundedFileReader reader;
    /** Specs already reported as unusable, so that each is logged once while it stays so. */
    private Set<Path> reported = Set.of();

    /**
     * @param containerRoot where the files appear in a container ({@code dra.metadata.root})
     */
    CdiSpecScanner(Path cdiDir, Path containerRoot, long maxSpecSize) {
        this.cdiDir = cdiDir.toAbsolutePath().normalize();
        this.containerRoot = containerRoot.toAbsolutePath().normalize();
        this.reader = new BoundedFileReader(maxSpecSize);
    }

    @Override
    public Path root() {
        return cdiDir;
    }

    @Override
    public String missingRootWarning() {
        return "CDI spec directory " + cdiDir + " does not exist: no metadata file of this node is visible. Mount the "
                + "node's " + cdiDir + " into the agent (read-only), or set dra.metadata.cdi-dir.";
    }

    /** Every scan reads the specs: one written in place (a driver's {@code os.WriteFile}) changes what it finds. */
    @Override
    public boolean walkReadsFilesOf(Path directory) {
        return cdiDir.equals(directory);
    }

    @Override
    public boolean claimsByContent() {
        return true;
    }

    @Override
    public Scan scan(Admission admission) {
        Map<Path, MetadataFileRef> files = new LinkedHashMap<>();
        Set<Path> directories = new LinkedHashSet<>();
        if (!Files.isDirectory(cdiDir)) {
            return Scan.missing();
        }
        directories.add(cdiDir);
        Set<Path> unusable = new LinkedHashSet<>();
        for (Path spec : specs()) {
            try {
                JsonNode root = JSON.readTree(reader.read(spec));
                List<JsonNode> mounts = new ArrayList<>();
                root.path("containerEdits").path("mounts").forEach(mounts::add);
                root.path("devices").forEach(device -> device.path("containerEdits").path("mounts").forEach(mounts::add));
                for (JsonNode mount : mounts) {
                    MetadataFileRef ref = ref(mount.path("hostPath").asText(""), mount.path("containerPath").asText(""));
                    if (ref != null && present(ref.path())) {
                        if (files.putIfAbsent(ref.path(), ref) == null) {
                            directories.add(ref.path().getParent());
                        }
                    }
                }
            } catch (IOException | MetadataDecodeException | RuntimeException e) {
                // Being written, removed, or not a spec: the next scan sees it as it is then.
                unusable.add(spec);
                if (!reported.contains(spec)) {
                    LOG.debugf("CDI spec %s cannot be read now: %s", spec, e.getMessage());
                }
            }
        }
        reported = unusable;
        List<MetadataFileRef> admitted = new ArrayList<>();
        for (MetadataFileRef ref : files.values()) {
            if (admission.admit(ref.path())) {
                admitted.add(ref);
            }
        }
        if (admitted.size() < files.size()) {
            directories.retainAll(admitted.stream().map(ref -> ref.path().getParent()).collect(Collectors.toSet()));
            directories.add(cdiDir);
        }
        return new Scan(admitted, files.size() - admitted.size(), List.copyOf(directories), true);
    }

    /** The file a mount names, when its container path is a metadata file of the container's tree; else null. */
    MetadataFileRef ref(String hostPath, String containerPath) {
        if (hostPath.isEmpty() || containerPath.isEmpty() || !hostPath.startsWith("/")) {
            return null;
        }
        Path inContainer = Path.of(containerPath).normalize();
        if (!inContainer.startsWith(containerRoot) || !inContainer.toString().equals(containerPath)) {
            return null;
        }
        Path relative = containerRoot.relativize(inContainer);
        if (relative.getNameCount() != 4) {
            return null;
        }
        ClaimKind kind = null;
        for (ClaimKind candidate : ClaimKind.values()) {
            if (candidate.directory().equals(relative.getName(0).toString())) {
                kind = candidate;
            }
        }
        String fileName = relative.getName(3).toString();
        if (kind == null || !fileName.endsWith(MetadataFileRef.SUFFIX) || fileName.equals(MetadataFileRef.SUFFIX)) {
            return null;
        }
        String driver = fileName.substring(0, fileName.length() - MetadataFileRef.SUFFIX.length());
        return new MetadataFileRef(kind, relative.getName(1).toString(), relative.getName(2).toString(), driver,
                fileName, Path.of(hostPath).normalize(), containerPath);
    }

    /**
     * Whether the file a mount names is there to serve: a regular file, or one this process may not reach (a
     * directory above it closed to its user), which is tracked and reported {@code unreadable} rather than taken for
     * a file not written yet.
     */
    private static boolean present(Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class).isRegularFile();
        } catch (AccessDeniedException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A host file is read where it leads; the specs that name it are the node's, written by root. */
    @Override
    public Path resolveInside(Path path) throws IOException {
        return path.toRealPath();
    }

    private List<Path> specs() {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(cdiDir, "*.json")) {
            for (Path spec : stream) {
                if (Files.isRegularFile(spec, LinkOption.NOFOLLOW_LINKS)) {
                    out.add(spec);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Removed or unreadable while listed: the next scan sees it as it is then.
        }
        return out;
    }
}
