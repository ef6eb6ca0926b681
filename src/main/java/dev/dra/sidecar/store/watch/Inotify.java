package dev.dra.sidecar.store.watch;

import com.sun.jna.Function;
import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.NativeLong;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The Linux calls behind per-file notification: {@code inotify_init1}, {@code inotify_add_watch},
 * {@code inotify_rm_watch}, {@code eventfd}, {@code poll}, {@code read}, {@code write} and {@code close} of the C
 * library, bound with JNA as functions by address: the library handle is released once their addresses are known,
 * and no call allocates native memory (paths go as bytes). So JNA's cleaner, whose thread wakes every 30 s for as
 * long as it tracks anything (a library handle, native memory, the type descriptors that direct mapping builds),
 * tracks nothing and its thread ends. The C library itself stays loaded: the JVM links it.
 *
 * <p>JNA rather than the FFM API, final only from Java 22 on: JNA works on every runtime from 17 on, on
 * x86-64 and aarch64 alike. Its native library {@code libjnidispatch} is extracted to a temporary directory unless
 * {@code jna.boot.library.path} names where it already is (the container image does: its root filesystem is
 * read-only).
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

    /** The C library's functions by name, bound as C calls that throw {@link LastErrorException} on failure. */
    private record Calls(Function init1, Function addWatch, Function rmWatch, Function eventfd, Function poll,
            Function read, Function write, Function close) {

        static Calls bind() {
            NativeLibrary c = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME);
            try {
                return new Calls(bind(c, "inotify_init1"), bind(c, "inotify_add_watch"), bind(c, "inotify_rm_watch"),
                        bind(c, "eventfd"), bind(c, "poll"), bind(c, "read"), bind(c, "write"), bind(c, "close"));
            } finally {
                c.close();
            }
        }

        /** The function by its address alone: unlike the library's own, it keeps no reference to the handle. */
        private static Function bind(NativeLibrary library, String name) {
            return Function.getFunction(new Pointer(Pointer.nativeValue(library.getFunction(name))),
                    Function.C_CONVENTION | Function.THROW_LAST_ERROR);
        }
    }

    private static final String UNAVAILABLE;
    private static final Calls CALLS;

    static {
        String os = System.getProperty("os.name", "");
        Calls calls = null;
        String unavailable = null;
        if (!os.startsWith("Linux")) {
            unavailable = "not Linux (os.name " + os + "): inotify is a Linux interface";
        } else {
            try {
                calls = Calls.bind();
            } catch (LinkageError | RuntimeException e) {
                unavailable = "the native library of JNA (libjnidispatch) did not load: " + e.getMessage();
            }
        }
        CALLS = calls;
        UNAVAILABLE = unavailable;
    }

    private Inotify() {}

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

    static int inotify_init1(int flags) throws LastErrorException {
        return CALLS.init1().invokeInt(new Object[] {flags});
    }

    static int inotify_add_watch(int fd, String path, int mask) throws LastErrorException {
        return CALLS.addWatch().invokeInt(new Object[] {fd, Native.toByteArray(path), mask});
    }

    static int inotify_rm_watch(int fd, int wd) throws LastErrorException {
        return CALLS.rmWatch().invokeInt(new Object[] {fd, wd});
    }

    static int eventfd(int initval, int flags) throws LastErrorException {
        return CALLS.eventfd().invokeInt(new Object[] {initval, flags});
    }

    /** {@code fds}: {@code struct pollfd} laid out in native byte order, 8 bytes each. */
    static int poll(byte[] fds, NativeLong nfds, int timeout) throws LastErrorException {
        return CALLS.poll().invokeInt(new Object[] {fds, nfds, timeout});
    }

    static NativeLong read(int fd, byte[] buffer, NativeLong count) throws LastErrorException {
        return (NativeLong) CALLS.read().invoke(NativeLong.class, new Object[] {fd, buffer, count});
    }

    static NativeLong write(int fd, byte[] buffer, NativeLong count) throws LastErrorException {
        return (NativeLong) CALLS.write().invoke(NativeLong.class, new Object[] {fd, buffer, count});
    }

    static int close(int fd) throws LastErrorException {
        return CALLS.close().invokeInt(new Object[] {fd});
    }
}
