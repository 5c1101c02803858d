package dev.gpulint.daemon;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's standard output and standard error as it wrote them: chunks in the order they were written, each
 * of one stream (consecutive writes to one stream make one chunk), so the client writes them back in that
 * order and {@code 2>&1} reads as a cold run's. At most {@link #MAX} bytes in all.
 */
final class Recording {
    /** What the daemon passes on of one run's output; a cold run's report is far smaller (findings are capped). */
    static final long MAX = 1L << 30;

    record Chunk(boolean err, byte[] bytes) {}

    private final List<Boolean> streams = new ArrayList<>();
    private final List<ByteArrayOutputStream> bodies = new ArrayList<>();
    private long total;

    final OutputStream out = new Side(false);
    final OutputStream err = new Side(true);

    private synchronized void write(boolean err, byte[] b, int off, int len) throws IOException {
        if (len == 0) return;
        if (total + len > MAX) throw new IOException("the output is larger than the daemon passes on (1 GiB)");
        total += len;
        if (streams.isEmpty() || streams.get(streams.size() - 1) != err) {
            streams.add(err);
            bodies.add(new ByteArrayOutputStream());
        }
        bodies.get(bodies.size() - 1).write(b, off, len);
    }

    synchronized List<Chunk> chunks() {
        List<Chunk> out = new ArrayList<>();
        for (int i = 0; i < streams.size(); i++) out.add(new Chunk(streams.get(i), bodies.get(i).toByteArray()));
        return out;
    }

    private final class Side extends OutputStream {
        private final boolean err;

        Side(boolean err) { this.err = err; }

        @Override public void write(int b) throws IOException { write(new byte[] {(byte) b}, 0, 1); }

        @Override public void write(byte[] b, int off, int len) throws IOException { Recording.this.write(err, b, off, len); }
    }
}
