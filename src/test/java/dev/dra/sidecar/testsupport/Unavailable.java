package dev.dra.sidecar.testsupport;

/**
 * Why a real component cannot run on this machine (no Go toolchain, not root): the tests that need it skip with
 * this reason.
 */
public final class Unavailable extends Exception {

    public Unavailable(String reason) {
        super(reason);
    }
}
