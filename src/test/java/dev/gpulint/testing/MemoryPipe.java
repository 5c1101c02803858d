package dev.gpulint.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;

/**
 * A one-way byte pipe between threads of this JVM, for tests that speak a protocol to an in-process server (the
 * language server's JSON-RPC). It replaces {@link java.io.PipedInputStream}, whose reader fails ("Write end dead",
 * "Pipe broken") as soon as the last thread that wrote to it has ended while the buffer is empty. The language server
 * writes from more than one thread (its listener answers requests; its lint thread publishes diagnostics), and the
 * lint thread ends when the client says shutdown: if it had written last, the client's listener could die between
 * two messages and the shutdown's answer never be read (LspServerTest hung 15 minutes in CI that way). This pipe
 * cares only whether it is closed. Writes never block (a test's messages are small); a read blocks until bytes come
 * or the pipe is closed, and an interrupted reader gets {@link InterruptedIOException}, which is how a listener's
 * {@code Future.cancel(true)} stops it.
 */
public final class MemoryPipe {
    private byte[] buffer = new byte[8192];
    private int start;
    private int end;
    private boolean closed;

    /** The end that reads. */
    public final InputStream in = new InputStream() {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) return 0;
            synchronized (MemoryPipe.this) {
                while (start == end && !closed) {
                    try {
                        MemoryPipe.this.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("the reader was interrupted");
                    }
                }
                if (start == end) return -1;
                int n = Math.min(len, end - start);
                System.arraycopy(buffer, start, b, off, n);
                start += n;
                return n;
            }
        }

        @Override
        public int available() {
            synchronized (MemoryPipe.this) {
                return end - start;
            }
        }

        @Override
        public void close() { MemoryPipe.this.close(); }
    };

    /** The end that writes. */
    public final OutputStream out = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            synchronized (MemoryPipe.this) {
                if (closed) throw new IOException("the pipe is closed");
                if (end + len > buffer.length) {
                    int live = end - start;
                    byte[] next = live + len > buffer.length ? new byte[Math.max(2 * buffer.length, live + len)] : buffer;
                    System.arraycopy(buffer, start, next, 0, live);
                    buffer = next;
                    start = 0;
                    end = live;
                }
                System.arraycopy(b, off, buffer, end, len);
                end += len;
                MemoryPipe.this.notifyAll();
            }
        }

        @Override
        public void close() { MemoryPipe.this.close(); }
    };

    /** Closes both ends: a waiting reader reads what is left, then the end of the stream; a writer fails. */
    public synchronized void close() {
        closed = true;
        notifyAll();
    }
}
