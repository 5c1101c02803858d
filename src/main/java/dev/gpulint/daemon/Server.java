package dev.gpulint.daemon;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The daemon: an {@link Engine} kept warm behind a loopback socket (docs/daemon.md). It listens on 127.0.0.1 at
 * an ephemeral port, and writes the port and a random token to its {@link StateFile}; daemon and client prove to
 * each other that they hold the token without sending it ({@link Wire}), and a client that cannot is refused before
 * anything else is read. Requests are bounded in size ({@link Settings#maxRequest}) and in number: one runs at a
 * time (the command line keeps state in statics), {@link Settings#queue} more may wait for at most
 * {@link Settings#turnWait} each, and past that a client is told "busy" and runs cold. It stops on {@code stop}, after
 * {@link Settings#idle} without a request, and when its jar changes (it then starts its successor through
 * {@link #onStale}); answers being delivered are finished first.
 */
public final class Server implements AutoCloseable {

    /**
     * @param stateFile where the port and token are written
     * @param jar the jar this daemon runs, watched for changes; null when it runs from classes (tests)
     * @param idle how long without a request before it exits
     * @param queue how many runs may wait while one runs
     * @param maxRequest the most bytes one request may send
     * @param turnWait how long a run waits for the one running before it is told "busy" (and runs cold)
     */
    public record Settings(Path stateFile, Path jar, Duration idle, int queue, long maxRequest, Duration turnWait) {
        public Settings(Path stateFile, Path jar, Duration idle, int queue, long maxRequest) {
            this(stateFile, jar, idle, queue, maxRequest, WAIT);
        }

        public static Settings of(Path stateFile, Path jar, Duration idle) { return new Settings(stateFile, jar, idle, 8, 8L << 20); }
    }

    /**
     * How long a run waits for its turn: a warm run takes tens of milliseconds, a cold one 0.4 s and more; a client still
     * waiting after 2 s is behind a long run and is better off cold than queued without a deadline.
     */
    static final Duration WAIT = Duration.ofSeconds(2);

    final Engine engine;
    final Settings settings;
    final PrintStream log;
    private final ServerSocket socket;
    private final String token;
    private final Semaphore handshakes = new Semaphore(32);
    final Semaphore runs;
    /** The engine's turn: held from a run's start to its end (not while its answer is delivered). */
    final Semaphore turn = new Semaphore(1);
    private final ExecutorService connections = Executors.newCachedThreadPool(named("gpulint-daemon-connection", 0));
    /** The engine's thread: 8 MiB of stack, as bin/gpulint gives a cold run (-Xss8m). */
    final ExecutorService engineThread = Executors.newSingleThreadExecutor(named("gpulint-engine", 8L << 20));
    private final ScheduledExecutorService house = Executors.newSingleThreadScheduledExecutor(named("gpulint-daemon-house", 0));
    final AtomicLong served = new AtomicLong();
    final AtomicInteger active = new AtomicInteger();
    volatile long lastActivity = System.nanoTime();
    final long started = System.currentTimeMillis();
    final JarWatch jar;
    final int umask;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean closing;
    /** Called once when the jar changed and has been still for a while: start the successor (then this one stops). */
    public volatile Runnable onStale = () -> {};

    private Server(Engine engine, Settings settings, PrintStream log) throws IOException {
        this.engine = engine;
        this.settings = settings;
        this.log = log;
        this.runs = new Semaphore(1 + settings.queue());
        this.jar = settings.jar() == null ? null : new JarWatch(settings.jar());
        this.umask = Umask.own();
        byte[] t = new byte[32];
        new SecureRandom().nextBytes(t);
        this.token = HexFormat.of().formatHex(t);
        this.socket = new ServerSocket(0, 50, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}));
    }

    /** Binds, writes the state file and starts answering. */
    public static Server start(Engine engine, Settings settings, PrintStream log) throws IOException {
        Server s = new Server(engine, settings, log);
        try {
            StateFile.write(settings.stateFile(), new StateFile.State(ProcessHandle.current().pid(), s.port(), s.token,
                    settings.jar() == null ? "" : settings.jar().toString(), s.started));
        } catch (IOException e) {
            s.socket.close();
            throw e;
        }
        Thread acceptor = named("gpulint-daemon-accept", 0).newThread(s::accept);
        acceptor.start();
        long tick = Math.max(50, Math.min(2000, settings.idle().toMillis() / 4));
        s.house.scheduleWithFixedDelay(s::housekeeping, tick, tick, TimeUnit.MILLISECONDS);
        return s;
    }

    public int port() { return socket.getLocalPort(); }

    String token() { return token; }

    /** Requests served so far. */
    public long served() { return served.get(); }

    /** Blocks until the daemon has stopped. */
    public void await() throws InterruptedException { stopped.await(); }

    private void accept() {
        while (!closing) {
            Socket s;
            try {
                s = socket.accept();
            } catch (IOException e) {
                if (!closing) log.println("gpulint daemon: accept failed: " + e);
                continue;
            }
            if (!handshakes.tryAcquire()) {
                refuse(s, "busy");
                continue;
            }
            connections.execute(() -> handle(s));
        }
    }

    private void handle(Socket s) {
        boolean released = false;
        InputStream in = null;
        try {
            s.setSoTimeout(10_000);     // the request comes at once; a client that stalls is dropped
            s.setTcpNoDelay(true);
            in = new BufferedInputStream(s.getInputStream());
            Wire.Budget budget = new Wire.Budget(settings.maxRequest());
            String magic = new String(Wire.field(in, 64, budget), StandardCharsets.US_ASCII);
            if (!magic.equals(Wire.MAGIC)) {
                refuseAndDrain(s, in, "protocol");
                return;
            }
            String clientNonce = new String(Wire.field(in, 64, budget), StandardCharsets.US_ASCII);
            if (!Wire.isNonce(clientNonce)) {
                refuseAndDrain(s, in, "protocol");
                return;
            }
            String ownNonce = Wire.nonce();
            reply(s, "daemon " + ownNonce + " " + Wire.daemonProof(token, clientNonce, ownNonce) + "\n");
            byte[] given = Wire.field(in, 128, budget);
            byte[] expected = Wire.clientProof(token, clientNonce, ownNonce).getBytes(StandardCharsets.US_ASCII);
            if (!MessageDigest.isEqual(given, expected)) {
                log.println("gpulint daemon: refused a client without the token");
                refuseAndDrain(s, in, "token");
                return;
            }
            String kind = new String(Wire.field(in, 16, budget), StandardCharsets.US_ASCII);
            handshakes.release();
            released = true;
            lastActivity = System.nanoTime();
            switch (kind) {
                case "run" -> new RunRequest(this, s, in, budget).serve();
                case "status" -> reply(s, status());
                case "stop" -> {
                    reply(s, "stopping\n");
                    closeQuietly(s);      // answered: the client need not wait for the runs under way to be delivered
                    log.println("gpulint daemon: stopping (asked)");
                    close();
                }
                default -> refuse(s, "protocol");
            }
        } catch (Wire.TooLarge e) {
            refuseAndDrain(s, in, "too-large");
        } catch (IOException | RuntimeException e) {
            // a client that went away or spoke nonsense: nothing to answer
        } finally {
            if (!released) handshakes.release();
            closeQuietly(s);
        }
    }

    private String status() {
        return "pid " + ProcessHandle.current().pid() + "\nport " + port() + "\nstarted " + started + "\nserved " + served.get()
                + "\nidle-timeout " + settings.idle().toSeconds() + "\njar " + (settings.jar() == null ? "" : settings.jar()) + "\n";
    }

    static void reply(Socket s, String text) {
        try {
            OutputStream o = s.getOutputStream();
            o.write(text.getBytes(StandardCharsets.UTF_8));
            o.flush();
        } catch (IOException e) {
            // the client went away
        }
    }

    static void refuse(Socket s, String why) {
        reply(s, "refused " + why + "\n");
        closeQuietly(s);
    }

    /**
     * Refuses, then reads what the client is still sending (at most 1 MiB, for at most half a second) before closing:
     * closed with unread bytes, the connection would be reset, and the client might lose the answer.
     */
    static void refuseAndDrain(Socket s, InputStream in, String why) {
        reply(s, "refused " + why + "\n");
        try {
            s.shutdownOutput();
            s.setSoTimeout(500);
            byte[] sink = new byte[8192];
            for (int total = 0, n; total < (1 << 20) && (n = in.read(sink)) > 0; total += n) {
                // discarded
            }
        } catch (IOException e) {
            // the client has gone: nothing to drain
        }
        closeQuietly(s);
    }

    static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closed already
        }
    }

    private boolean staleSeen;

    private void housekeeping() {
        try {
            if (jar != null && jar.changed()) {
                // wait until the build has finished writing it: the same size and time on two looks in a row
                if (staleSeen && jar.settled()) {
                    log.println("gpulint daemon: the jar changed; starting its successor");
                    try {
                        onStale.run();
                    } finally {
                        close();
                    }
                    return;
                }
                staleSeen = true;
            }
            long quiet = System.nanoTime() - lastActivity;
            if (active.get() == 0 && quiet > settings.idle().toNanos()) {
                log.println("gpulint daemon: idle for " + settings.idle().toSeconds() + " s; stopping");
                close();
            }
        } catch (RuntimeException e) {
            log.println("gpulint daemon: " + e);
        }
    }

    /**
     * Stops listening and removes the state file (when it is still this daemon's), so new clients run cold; then waits
     * until the runs under way have delivered their answers (a client paging through {@code | less} holds its delivery
     * at most the delivery's socket time-out), and releases {@link #await()}.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closing) return;
            closing = true;
        }
        StateFile.removeIfOurs(settings.stateFile(), token);
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
        house.shutdown();
        try {
            synchronized (active) {
                while (active.get() > 0) active.wait();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connections.shutdown();
        engineThread.shutdown();
        stopped.countDown();
    }

    /** A run (from its start to its answer's last frame) is over: {@link #close} may be waiting for it. */
    void finished() {
        synchronized (active) {
            active.decrementAndGet();
            active.notifyAll();
        }
    }

    static java.util.concurrent.ThreadFactory named(String name, long stack) {
        return r -> {
            Thread t = new Thread(null, r, name, stack);
            t.setDaemon(true);
            return t;
        };
    }
}
