package dev.gpulint.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The test pipe the language server's protocol tests speak over ({@link MemoryPipe}). */
class MemoryPipeTest {

    private static void writeOnAThreadThatEnds(MemoryPipe p, String text) throws InterruptedException {
        Thread t = new Thread(() -> {
            try {
                p.out.write(text.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, "writer-that-ends");
        t.start();
        t.join();
    }

    private static String read(MemoryPipe p, int n) throws IOException {
        byte[] b = p.in.readNBytes(n);
        return new String(b, StandardCharsets.UTF_8);
    }

    /**
     * The case java.io.PipedInputStream fails: the thread that wrote last has ended and the buffer is empty (it throws
     * "Write end dead"); a reader here waits, and reads what a live thread writes next.
     */
    @Test
    void aReaderOutlivesTheWritersThatEnded() throws Exception {
        MemoryPipe p = new MemoryPipe();
        writeOnAThreadThatEnds(p, "first");
        assertEquals("first", read(p, 5));
        AtomicReference<String> next = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try {
                next.set(read(p, 6));
            } catch (IOException e) {
                next.set("failed: " + e);
            }
        });
        reader.start();
        CpuBudget.ofSeconds(10).until(() -> reader.getState() == Thread.State.WAITING, "the reader waiting on the empty pipe");
        p.out.write("second".getBytes(StandardCharsets.UTF_8));
        reader.join();
        assertEquals("second", next.get());
    }

    @Test
    void bytesComeOutInOrderAcrossTheBuffersGrowth() throws Exception {
        MemoryPipe p = new MemoryPipe();
        StringBuilder sent = new StringBuilder(), received = new StringBuilder();
        for (int i = 0; i < 5_000; i++) {
            String s = i + ",";
            sent.append(s);
            p.out.write(s.getBytes(StandardCharsets.UTF_8));
            if (i % 7 == 0) received.append((char) p.in.read());   // reads between the writes: the buffer is compacted
        }
        p.close();
        received.append(new String(p.in.readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(sent.toString(), received.toString());
        assertTrue(sent.length() > 8192, "past the first buffer: " + sent.length());
    }

    @Test
    void closedItEndsTheReaderAndRefusesTheWriter() throws Exception {
        MemoryPipe p = new MemoryPipe();
        p.out.write('x');
        p.out.close();
        assertEquals('x', p.in.read());
        assertEquals(-1, p.in.read(), "after what was left, the end of the stream");
        assertThrows(IOException.class, () -> p.out.write('y'));
    }

    @Test
    void anInterruptedReaderStops() throws Exception {
        MemoryPipe p = new MemoryPipe();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try {
                p.in.read();
            } catch (Throwable e) {
                failed.set(e);
            }
        });
        reader.start();
        CpuBudget.ofSeconds(10).until(() -> reader.getState() == Thread.State.WAITING, "the reader waiting on the empty pipe");
        reader.interrupt();
        reader.join();
        assertEquals(InterruptedIOException.class, failed.get().getClass(), String.valueOf(failed.get()));
    }
}
