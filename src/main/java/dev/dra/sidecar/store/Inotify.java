package dev.dra.sidecar.store;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.NativeLong;
import com.sun.jna.Platform;

/**
 * The Linux calls behind per-file notification: {@code inotify_init1}, {@code inotify_add_watch},
 * {@code inotify_rm_watch}, {@code eventfd}, {@code poll}, {@code read}, {@code write} and {@code close} of the C
 * library, bound with JNA direct mapping (static native methods, no proxy, no reflection per call).
 *
 * <p>Why JNA and not the FFM API: the project compiles for Java 17, where {@code java.lang.foreign} is a preview
 * API (final only in Java 22), so FFM would need a second source set built by a newer JDK and a multi-release jar;
 * JNA works on every runtime from 17 on, on x86-64 and aarch64 alike. What it costs (figures in bench/history.md):
 * one jar of about 2 MB, a native library {@code libjnidispatch} that is extracted to a temporary directory unless
 * {@code jna.boot.library.path} names where it already is (the container image does: its root filesystem is
 * read-only), and a few hundred classes and milliseconds at start.
 *
 * <p>Contract: {@link #available()} tells whether the calls can be made here, and {@link #unavailableReason()}
 * says why not (not Linux, the native library does not load). Every call that fails throws
 * {@link LastErrorException} with the {@code errno}; none is retried here.
 */
final class Inotify {

    static final int IN_MODIFY = 0x2;
    static final int IN_ATTRIB = 0x4;
    static final int IN_CLOSE_WRITE = 0x8;
    static final int IN_DELETE_SELF = 0x400;
    static final int IN_MOVE_SELF = 0x800;
    static final int IN_UNMOUNT = 0x2000;
    static final int IN_Q_OVERFLOW = 0x4000;
    static final int IN_IGNORED = 0x8000;

    /** {@code O_NONBLOCK} and {@code O_CLOEXEC} as Linux defines them on x86-64 and aarch64. */
    static final int IN_NONBLOCK = 0x800;
    static final int IN_CLOEXEC = 0x80000;
    static final int EFD_NONBLOCK = IN_NONBLOCK;
    static final int EFD_CLOEXEC = IN_CLOEXEC;

    static final short POLLIN = 0x1;

    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int ENOENT = 2;
    static final int EPERM = 1;
    static final int EACCES = 13;
    static final int EMFILE = 24;
    static final int ENOSPC = 28;
    static final int ENOSYS = 38;

    /** {@code sizeof(struct inotify_event)} without its name: wd, mask, cookie, len. */
    static final int EVENT_HEADER_BYTES = 16;

    private static final String UNAVAILABLE = load();

    private Inotify() {}

    private static String load() {
        String os = System.getProperty("os.name", "");
        if (!os.startsWith("Linux")) {
            return "not Linux (os.name " + os + "): inotify is a Linux interface";
        }
        try {
            Native.register(Inotify.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
            return null;
        } catch (LinkageError | RuntimeException e) {
            return "the native library of JNA (libjnidispatch) did not load: " + e.getMessage();
        }
    }

    static boolean available() {
        return UNAVAILABLE == null;
    }

    /** Why the calls cannot be made here; {@code null} when {@link #available()}. */
    static String unavailableReason() {
        return UNAVAILABLE;
    }

    /** {@code strerror}-like words for the errno values these calls return, for log lines a person reads. */
    static String describe(int errno) {
        return switch (errno) {
            case EPERM -> "EPERM (operation not permitted: a seccomp profile may refuse inotify)";
            case ENOSYS -> "ENOSYS (function not implemented: a seccomp profile may refuse inotify)";
            case EMFILE -> "EMFILE (fs.inotify.max_user_instances reached, or too many open files)";
            case ENOSPC -> "ENOSPC (fs.inotify.max_user_watches reached)";
            case EACCES -> "EACCES (permission denied)";
            case ENOENT -> "ENOENT (no such file)";
            default -> "errno " + errno;
        };
    }

    static native int inotify_init1(int flags) throws LastErrorException;

    static native int inotify_add_watch(int fd, String path, int mask) throws LastErrorException;

    static native int inotify_rm_watch(int fd, int wd) throws LastErrorException;

    static native int eventfd(int initval, int flags) throws LastErrorException;

    /** {@code fds}: {@code struct pollfd} laid out in native byte order, 8 bytes each. */
    static native int poll(byte[] fds, NativeLong nfds, int timeout) throws LastErrorException;

    static native NativeLong read(int fd, byte[] buffer, NativeLong count) throws LastErrorException;

    static native NativeLong write(int fd, byte[] buffer, NativeLong count) throws LastErrorException;

    static native int close(int fd) throws LastErrorException;
}
