package dev.gpulint.read.yaml;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.snakeyaml.engine.v2.events.Event;

/**
 * A large file's parser events, produced on a thread of their own while the reader builds the tree from the
 * ones before: scanning is most of a fleet file's reading, and the tree, folding and binding are the rest.
 * Events come in batches through a short queue (memory stays bounded); whatever the parser throws is thrown
 * again where the reader meets it, in order; a reader that stops early stops the parser.
 */
final class AheadEvents implements Iterator<Event>, Iterable<Event>, AutoCloseable {
    private static final int BATCH = 4096;

    /** Files at least this long are scanned ahead; shorter ones are scanned as they are read. */
    static final int AHEAD_FROM = 4 * 1024 * 1024;

    /** The events of a file of {@code length} characters: ahead on their own thread when it is large. */
    static AheadEvents of(Iterable<Event> events, int length, String name) {
        return new AheadEvents(events, name, length >= AHEAD_FROM);
    }

    private final Iterator<Event> inline;

    @Override public Iterator<Event> iterator() { return inline != null ? inline : this; }

    /** A batch of events, or what stopped the parser (a Throwable), or the end. */
    private record Batch(List<Event> events, Throwable failure, boolean end) {}

    private final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(8);
    private final Thread producer;
    private volatile boolean closed;
    private List<Event> current = List.of();
    private int next;
    private boolean ended;

    private AheadEvents(Iterable<Event> events, String name, boolean ahead) {
        inline = ahead ? null : events.iterator();
        producer = ahead ? new Thread(() -> produce(events), "gpulint-yaml-" + name) : null;
        if (producer == null) return;
        producer.setDaemon(true);
        producer.start();
    }

    private void produce(Iterable<Event> events) {
        List<Event> batch = new ArrayList<>(BATCH);
        try {
            for (Event e : events) {
                if (closed) return;
                batch.add(e);
                if (batch.size() == BATCH) {
                    queue.put(new Batch(batch, null, false));
                    batch = new ArrayList<>(BATCH);
                }
            }
            queue.put(new Batch(batch, null, true));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            try {
                queue.put(new Batch(batch, t, true));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** What stopped the parser, thrown when the reader asks past the last event before it (as the parser would). */
    private Throwable failure;

    @Override public boolean hasNext() {
        while (next == current.size()) {
            if (ended) {
                if (failure == null) return false;
                Throwable t = failure;
                failure = null;
                if (t instanceof RuntimeException r) throw r;
                if (t instanceof Error e) throw e;
                throw new IllegalStateException(t);
            }
            Batch b;
            try {
                b = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while reading", e);
            }
            current = b.events();
            next = 0;
            ended = b.end();
            failure = b.failure();
        }
        return true;
    }

    @Override public Event next() {
        if (!hasNext()) throw new NoSuchElementException();
        return current.get(next++);
    }

    @Override public void close() {
        closed = true;
        if (producer != null) producer.interrupt();
    }
}
