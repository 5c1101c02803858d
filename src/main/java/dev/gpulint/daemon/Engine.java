package dev.gpulint.daemon;

import java.io.OutputStream;

/**
 * What a warm process runs for each request: one command line, as a cold {@code gpulint} would run it, with the
 * request's own working directory, environment and standard input ({@link Invocation}). The daemon's
 * {@link Server} calls it one request at a time; an editor front end can call it the same way.
 */
public interface Engine {

    /** Runs {@code inv}, writing what a cold run writes to standard output and standard error; returns its exit code. */
    int run(Invocation inv, OutputStream out, OutputStream err);

    /** Why this engine will not run {@code inv} warm (the client then runs it cold), or null when it will. */
    default String refuses(Invocation inv) { return null; }
}
