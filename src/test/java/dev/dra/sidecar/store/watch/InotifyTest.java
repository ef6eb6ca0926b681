package dev.dra.sidecar.store.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.LastErrorException;
import com.sun.jna.NativeLong;
import com.sun.jna.internal.Cleaner;
import java.lang.reflect.Field;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The C calls as {@link Inotify} binds them: they work, a failure throws with its {@code errno}, and neither the
 * binding nor the calls leave JNA's cleaner anything to track, so that its thread, which otherwise wakes every 30 s
 * for the life of the process, ends.
 */
class InotifyTest {

    @TempDir
    Path dir;

    @Test
    void theCallsWorkAndFailWithTheirErrno() {
        assertTrue(Inotify.available(), Inotify.unavailableReason());
        int fd = Inotify.inotify_init1(Inotify.IN_NONBLOCK | Inotify.IN_CLOEXEC);
        try {
            assertTrue(Inotify.inotify_add_watch(fd, dir.toString(), FileWatcher.MASK) > 0, "a watch descriptor");
            LastErrorException missing = assertThrows(LastErrorException.class,
                    () -> Inotify.inotify_add_watch(fd, dir.resolve("missing").toString(), FileWatcher.MASK));
            assertEquals(Inotify.ENOENT, missing.getErrorCode(), missing.getMessage());
            byte[] buffer = new byte[4096];
            LastErrorException nothing = assertThrows(LastErrorException.class,
                    () -> Inotify.read(fd, buffer, new NativeLong(buffer.length)));
            assertEquals(Inotify.EAGAIN, nothing.getErrorCode(), "no event yet, and the descriptor does not block");
        } finally {
            Inotify.close(fd);
        }
    }

    @Test
    void jnasCleanerIsLeftNothingToTrack() throws ReflectiveOperationException {
        assertTrue(Inotify.available(), Inotify.unavailableReason());
        int fd = Inotify.inotify_init1(Inotify.IN_NONBLOCK | Inotify.IN_CLOEXEC);
        Inotify.inotify_add_watch(fd, dir.toString(), FileWatcher.MASK);
        Inotify.close(fd);
        // JNA 5.19's cleaner: a list of what it will clean, and a thread that ends when the list is empty.
        Field first = Cleaner.class.getDeclaredField("firstCleanable");
        first.setAccessible(true);
        assertNull(first.get(Cleaner.getCleaner()), "JNA's cleaner tracks a native resource");
    }
}
