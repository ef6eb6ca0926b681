package dev.dra.sidecar.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The upstream metadata writer as a command: {@code src/test/go/oracle/cmd/writer} runs the unexported
 * {@code metadataWriter} of {@code k8s.io/dynamic-resource-allocation/kubeletplugin} at the version the oracle
 * module's {@code go.sum} pins, unmodified, for one fixed claim (see its package comment). Go refuses overlays
 * under its module cache, so {@link #build()} copies the pinned module into {@code target/go-writer}, points
 * {@code go.mod} there with a {@code replace} (in a generated copy used with {@code -modfile}) and adds the one
 * exporting file with {@code -overlay}.
 */
public final class UpstreamWriter {

    public static final String DRIVER = "gpu.example.com";
    public static final String NAMESPACE = "default";
    public static final String CLAIM = "c";
    public static final String UID = "uid-c";
    public static final String REQUEST = "r";
    private static final String MODULE = "k8s.io/dynamic-resource-allocation";
    private static final Path WORK = Path.of("target/go-writer").toAbsolutePath();
    private static final Path EXPORT = GoOracle.MODULE.resolve("cmd/writer/kubeletplugin_export.go.txt").toAbsolutePath();

    private final Path binary;
    private final Path pluginDataDir;
    private final Path cdiDir;

    private UpstreamWriter(Path binary, Path pluginDataDir, Path cdiDir) {
        this.binary = binary;
        this.pluginDataDir = pluginDataDir;
        this.cdiDir = cdiDir;
    }

    /** Builds the command (needs {@link GoOracle#goCommand()}); it writes under these two host directories. */
    public static UpstreamWriter build(Path pluginDataDir, Path cdiDir) {
        String go = GoOracle.goCommand().orElseThrow(() -> new IllegalStateException("no go command")).toString();
        Path upstream = Path.of(GoOracle.run(GoOracle.MODULE, List.of(go, "list", "-m", "-f", "{{.Dir}}", MODULE)).strip());
        Path copy = WORK.resolve("dynamic-resource-allocation");
        FileTrees.copyTree(upstream, copy);
        Path modFile = WORK.resolve("go.mod");
        write(modFile, read(GoOracle.MODULE.resolve("go.mod")) + "\nreplace " + MODULE + " => " + copy + "\n");
        write(WORK.resolve("go.sum"), read(GoOracle.MODULE.resolve("go.sum")));
        Path overlay = WORK.resolve("overlay.json");
        write(overlay, "{\"Replace\":{\"" + copy.resolve("kubeletplugin/zz_sidecar_export.go") + "\":\"" + EXPORT + "\"}}");
        Path binary = WORK.resolve("writer");
        GoOracle.run(GoOracle.MODULE, List.of(go, "build", "-mod=readonly", "-modfile=" + modFile, "-overlay=" + overlay,
                "-o", binary.toString(), "./cmd/writer"));
        return new UpstreamWriter(binary, pluginDataDir, cdiDir);
    }

    /** {@code processPreparedClaim}: the metadata file at generation 1 (model "model-1") and its CDI spec. */
    public void prepare() {
        run("prepare");
    }

    /** {@code updateRequestMetadata}: the next generation, model "model-2". */
    public void update() {
        run("update");
    }

    /** {@code cleanupClaim}: the claim's metadata directory and CDI specs removed. */
    public void cleanup() {
        run("cleanup");
    }

    /** The CDI spec {@link #prepare()} writes: {@code <cdiDir>/<driver>_metadata_<uid>_<request>.json}. */
    public Path cdiSpec() {
        return cdiDir.resolve(DRIVER + "_metadata_" + UID + "_" + REQUEST + ".json");
    }

    /** The claim's host directory: {@code <pluginDataDir>/dra-device-metadata/<namespace>_<claim>}. */
    public Path claimDir() {
        return pluginDataDir.resolve("dra-device-metadata").resolve(NAMESPACE + "_" + CLAIM);
    }

    private void run(String operation) {
        GoOracle.run(GoOracle.MODULE, List.of(binary.toString(), operation, pluginDataDir.toString(), cdiDir.toString()));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
