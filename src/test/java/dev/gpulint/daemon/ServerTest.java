package dev.gpulint.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.gpulint.testing.CpuBudget;

/** The daemon's server with a stand-in engine: the token, the protocol's frames, standard input, the bounds, stop and idle. */
class ServerTest {

    static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    /** Writes "out:ARGS", then "err:$X", then "out:more"; exit 3. */
    static final class Echo implements Engine {
        final AtomicInteger runs = new AtomicInteger();

        @Override
        public int run(Invocation inv, OutputStream out, OutputStream err) {
            runs.incrementAndGet();
            try {
                out.write(("out:" + String.join(",", inv.args()) + "@" + inv.cwd() + "\n").getBytes(StandardCharsets.UTF_8));
                err.write(("err:" + inv.env().get("X") + "\n").getBytes(StandardCharsets.UTF_8));
                out.write("out:more\n".getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return 3;
        }
    }

    /** The variables the daemon compares with its own (locale, time zone): a client sends them as they are. */
    static Map<String, String> jvmEnv() {
        Map<String, String> env = new HashMap<>();
        System.getenv().forEach((k, v) -> {
            if (k.startsWith("LC_") || k.equals("LANG") || k.equals("TZ")) env.put(k, v);
        });
        return env;
    }

    static Server start(Engine e, Path dir, Server.Settings settings) throws IOException {
        return Server.start(e, settings, QUIET);
    }

    static Server.Settings settings(Path dir) {
        return Server.Settings.of(dir.resolve("state").resolve("daemon-test"), null, Duration.ofMinutes(5));
    }

    static Client.Reply run(Server s, Path cwd, List<String> args, Map<String, String> extra) throws IOException {
        Map<String, String> env = jvmEnv();
        env.putAll(extra);
        return Client.run(s.port(), s.token(), "", cwd.toString(), Client.ownUmask(), args, env);
    }

    @Test
    void aClientWithoutTheTokenIsRefusedAndNothingRuns(@TempDir Path dir) throws IOException {
        Echo echo = new Echo();
        try (Server s = start(echo, dir, settings(dir))) {
            String wrong = s.token().substring(1) + (s.token().charAt(0) == 'a' ? 'b' : 'a');
            // a client with another token finds that the daemon's proof does not match it, and sends nothing more
            assertThrows(Client.NotTheDaemon.class,
                    () -> Client.run(s.port(), wrong, "", dir.toString(), Client.ownUmask(), List.of("x"), jvmEnv()));
            // no token at all: the magic and a nonce, then a proof made up and the request's other fields
            try (Socket raw = new Socket(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), s.port())) {
                raw.getOutputStream().write("gpulint-daemon/2\0000102030405060708090a0b0c0d0e0f\0".getBytes(StandardCharsets.US_ASCII));
                String hello = Wire.line(raw.getInputStream(), 256);
                assertTrue(hello.matches("daemon [0-9a-f]{32} [0-9a-f]{64}"), hello);
                raw.getOutputStream().write(("0".repeat(64) + "\0run\0\0").getBytes(StandardCharsets.US_ASCII));
                assertEquals("refused token\n", new String(raw.getInputStream().readAllBytes(), StandardCharsets.US_ASCII));
            }
            // the old protocol, which sent the token first, is not spoken any more
            try (Socket raw = new Socket(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), s.port())) {
                raw.getOutputStream().write(("gpulint-daemon/1\0" + s.token() + "\0run\0").getBytes(StandardCharsets.US_ASCII));
                assertEquals("refused protocol\n", new String(raw.getInputStream().readAllBytes(), StandardCharsets.US_ASCII));
            }
            assertTrue(Client.status(new StateFile.State(0, s.port(), wrong, "", 0)).isEmpty(), "status needs the token too");
            assertEquals(0, echo.runs.get());
            assertEquals(0, s.served());
            Client.Reply ok = run(s, dir, List.of("x"), Map.of());
            assertNull(ok.refused());
            assertEquals(1, echo.runs.get());
        }
    }

    @Test
    void framesKeepTheOrder(@TempDir Path dir) throws IOException {
        try (Server s = start(new Echo(), dir, settings(dir))) {
            Client.Reply r = run(s, dir, List.of("a b", "", "é"), Map.of("X", "line1\nline2"));
            assertEquals(3, r.code());
            assertEquals(3, r.frames().size(), "out, err, out: " + r.frames());
            assertFalse(r.frames().get(0).err());
            assertTrue(r.frames().get(1).err());
            assertEquals("out:a b,,é@" + dir.toRealPath() + "\nout:more\n", new String(r.out(), StandardCharsets.UTF_8));
            assertEquals("err:line1\nline2\n", new String(r.err(), StandardCharsets.UTF_8));
            assertEquals(1, s.served());
        }
    }

    @Test
    void argumentsThatAreNotUtf8AreTakenAsAColdRunTakesThem() {
        // a cold run gets j\xffob.yaml back from /proc/self/cmdline (cli.RawArgs); U+FFFD would name no file
        assertEquals("j\\xffob.yaml", RunRequest.argument(new byte[] {'j', (byte) 0xff, 'o', 'b', '.', 'y', 'a', 'm', 'l'}));
        assertEquals("café.yaml", RunRequest.argument("café.yaml".getBytes(StandardCharsets.UTF_8)));
    }

    /** A listener of another account on a port a crashed daemon left: it sees what the client sends, and answers as it likes. */
    private static final class Impostor implements AutoCloseable {
        final java.net.ServerSocket socket = new java.net.ServerSocket(0, 5, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}));
        final ByteArrayOutputStream received = new ByteArrayOutputStream();
        final CompletableFuture<Void> done;

        Impostor(java.util.function.BiConsumer<InputStream, OutputStream> script) throws IOException {
            done = CompletableFuture.runAsync(() -> {
                try (Socket c = socket.accept()) {
                    c.setSoTimeout(20_000);
                    InputStream tee = new java.io.FilterInputStream(c.getInputStream()) {
                        @Override public int read() throws IOException {
                            int b = super.read();
                            if (b >= 0) received.write(b);
                            return b;
                        }
                    };
                    script.accept(tee, c.getOutputStream());
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }

        @Override public void close() throws IOException { socket.close(); }
    }

    private static void write(OutputStream o, String s) {
        try {
            o.write(s.getBytes(StandardCharsets.UTF_8));
            o.flush();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String readField(InputStream in) {
        try {
            return new String(Wire.field(in, 1 << 16, new Wire.Budget(1 << 20)), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aListenerThatCannotProveItHoldsTheTokenGetsNothing() throws Exception {
        String token = "ab".repeat(32);
        try (Impostor fake = new Impostor((in, out) -> {
            readField(in);
            readField(in);
            write(out, "daemon " + "00".repeat(16) + " " + "11".repeat(32) + "\n");
            readField(in);      // whatever comes next: nothing should
        })) {
            assertThrows(Client.NotTheDaemon.class, () -> Client.run(fake.socket.getLocalPort(), token, "", "/", 0,
                    List.of("secret-argument"), Map.of("GITHUB_TOKEN", "ghp_secret")));
            String got = fake.received.toString(StandardCharsets.UTF_8);
            assertTrue(got.startsWith("gpulint-daemon/2\0"), got);
            assertFalse(got.contains(token) || got.contains("secret") || got.contains("run"), "the impostor got: " + got);
        }
    }

    @Test
    void anAnswerCutShortIsAnErrorNeverAShortReport() throws Exception {
        String token = "cd".repeat(32);
        for (String cut : List.of("exit 0\nout 10\nabc", "exit 0\nout 3\nabc")) {
            try (Impostor killed = new Impostor((in, out) -> {
                readField(in);
                String nonce = readField(in);
                String own = Wire.nonce();
                write(out, "daemon " + own + " " + Wire.daemonProof(token, nonce, own) + "\n");
                readField(in);
                readField(in);
                write(out, cut);     // then the daemon is killed: the connection ends
            })) {
                IOException e = assertThrows(IOException.class, () -> Client.run(killed.socket.getLocalPort(), token, "", "/", 0,
                        List.of(), Map.of()));
                assertTrue(e.getMessage().startsWith("the daemon stopped before its answer was complete"), e.getMessage());
            }
        }
    }

    @Test
    void stopWaitsForTheAnswersBeingDelivered(@TempDir Path dir) throws Exception {
        Server.Settings set = settings(dir);
        Server s = start(new Echo(), dir, set);
        try (Socket raw = new Socket(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), s.port())) {
            raw.setSoTimeout(20_000);
            InputStream in = new java.io.BufferedInputStream(raw.getInputStream());
            OutputStream o = raw.getOutputStream();
            String nonce = Wire.nonce();
            write(o, Wire.MAGIC + "\0" + nonce + "\0");
            String[] hello = Wire.line(in, 256).split(" ");
            StringBuilder req = new StringBuilder(Wire.clientProof(s.token(), nonce, hello[1]) + "\0run\0\0" + dir + "\0");
            req.append(String.format("%04o%n", Client.ownUmask())).append("1\0x\0");
            Map<String, String> env = jvmEnv();
            req.append(env.size()).append('\0');
            env.forEach((k, v) -> req.append(k).append('=').append(v).append('\0'));
            write(o, req.toString());
            assertEquals("exit 3", Wire.line(in, 64));
            String header = Wire.line(in, 64);
            assertTrue(header.startsWith("out "), header);
            in.readNBytes(Integer.parseInt(header.substring(4)));
            // the first frame is read and not yet acknowledged: the daemon is asked to stop
            assertTrue(Client.stop(StateFile.read(set.stateFile()).orElseThrow()));
            CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> {
                try {
                    s.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Thread.sleep(300);
            assertFalse(stopped.isDone(), "the daemon stopped with an answer half delivered");
            assertFalse(Files.exists(set.stateFile()), "new clients already run cold");
            StringBuilder rest = new StringBuilder();
            while (true) {
                write(o, ".");
                String h = Wire.line(in, 64);
                if (h.equals("end")) break;
                rest.append(new String(in.readNBytes(Integer.parseInt(h.split(" ")[1])), StandardCharsets.UTF_8));
            }
            assertEquals("err:null\nout:more\n", rest.toString());
            CpuBudget.ofSeconds(30).get(stopped);
        }
    }

    @Test
    void theStateFileIsTheUsersAloneAndGoesWithTheDaemon(@TempDir Path dir) throws IOException, InterruptedException {
        Server.Settings set = settings(dir);
        Server s = start(new Echo(), dir, set);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(set.stateFile())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(set.stateFile().getParent())));
        StateFile.State st = StateFile.read(set.stateFile()).orElseThrow();
        assertEquals(s.port(), st.port());
        assertEquals(ProcessHandle.current().pid(), st.pid());
        assertEquals(64, st.token().length());
        assertEquals("0", Client.status(st).orElseThrow().get("served"));
        assertTrue(Client.stop(st));
        s.await();
        assertFalse(Files.exists(set.stateFile()));
        assertTrue(Client.status(st).isEmpty());
    }

    @Test
    void aFolderOthersCanEnterIsRefused(@TempDir Path dir) throws IOException {
        Path open = Files.createDirectory(dir.resolve("open"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
        String problem = StateFile.folderProblem(open);
        assertTrue(problem != null && problem.contains("can be entered by other users (rwxr-xr-x)"), problem);
    }

    /** An engine that says it runs ({@code running}) and then holds its run until {@code release}. */
    private static Engine heldUntil(CountDownLatch running, CountDownLatch release) {
        return new Engine() {
            @Override public int run(Invocation inv, OutputStream out, OutputStream err) {
                running.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS);   // wall-clock-ok: frees the slow engine; no assertion
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return 0;
            }
        };
    }

    /** A client's run of {@code arg} on another thread. */
    private static CompletableFuture<Client.Reply> inBackground(Server s, Path dir, String arg) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return run(s, dir, List.of(arg), Map.of());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    @Test
    void requestsAreBoundedInSizeAndInNumber(@TempDir Path dir) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        Engine slow = heldUntil(running, release);
        Server.Settings tight = new Server.Settings(dir.resolve("s").resolve("d"), null, Duration.ofMinutes(5), 0, 2000);
        try (Server s = start(slow, dir, tight)) {
            assertEquals("too-large", run(s, dir, List.of("x".repeat(3000)), Map.of()).refused());
            CompletableFuture<Client.Reply> first = inBackground(s, dir, "a");
            CpuBudget.ofSeconds(30).await(running, "the first request running");
            assertEquals("busy", run(s, dir, List.of("b"), Map.of()).refused(), "one runs, none may wait");
            release.countDown();
            assertEquals(0, CpuBudget.ofSeconds(30).get(first).code());
        }
    }

    @Test
    void aRunWaitsForItsTurnNoLongerThanTheSettingsSay(@TempDir Path dir) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        Engine slow = heldUntil(running, release);
        // room to queue, but no time to wait: the second client is told "busy" at once instead of queueing behind the first
        Server.Settings noWait = new Server.Settings(dir.resolve("s").resolve("d"), null, Duration.ofMinutes(5), 8, 1 << 20, Duration.ZERO);
        try (Server s = start(slow, dir, noWait)) {
            CompletableFuture<Client.Reply> first = inBackground(s, dir, "a");
            CpuBudget.ofSeconds(30).await(running, "the first request running");
            assertEquals("busy", run(s, dir, List.of("b"), Map.of()).refused());
            release.countDown();
            assertEquals(0, CpuBudget.ofSeconds(30).get(first).code());
            assertNull(run(s, dir, List.of("c"), Map.of()).refused(), "its turn comes once the first is over");
        }
    }

    @Test
    void aClientWhoseJvmWouldDifferRunsCold(@TempDir Path dir) throws IOException {
        Echo echo = new Echo();
        try (Server s = start(echo, dir, settings(dir))) {
            assertEquals("java-options", run(s, dir, List.of(), Map.of("JAVA_TOOL_OPTIONS", "-Xmx1g")).refused());
            String lang = System.getenv("LANG");
            assertEquals("environment", run(s, dir, List.of(), Map.of("LANG", "x".equals(lang) ? "y" : "x")).refused());
            int other = Client.ownUmask() ^ 0077;
            assertEquals("umask", Client.run(s.port(), s.token(), "", dir.toString(), other, List.of(), jvmEnv()).refused());
            assertEquals("cwd", run(s, dir.resolve("gone"), List.of(), Map.of()).refused());
            assertEquals(0, echo.runs.get());
        }
    }

    @Test
    void aChangedJarIsRefusedAndTheSuccessorStarted(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("gpulint-all.jar"), "one");
        Server.Settings set = new Server.Settings(dir.resolve("s").resolve("d"), jar, Duration.ofSeconds(5), 8, 1 << 20);
        Server s = start(new Echo(), dir, set);
        CountDownLatch successor = new CountDownLatch(1);
        s.onStale = successor::countDown;
        Map<String, String> env = jvmEnv();
        assertNull(Client.run(s.port(), s.token(), jar.toString(), dir.toString(), Client.ownUmask(), List.of(), env).refused());
        assertEquals("jar", Client.run(s.port(), s.token(), dir.resolve("other.jar").toString(), dir.toString(), Client.ownUmask(),
                List.of(), env).refused(), "another install's jar");
        Files.writeString(jar, "two, rebuilt");
        assertEquals("stale", Client.run(s.port(), s.token(), jar.toString(), dir.toString(), Client.ownUmask(), List.of(), env).refused());
        CpuBudget.ofSeconds(30).await(successor, "the successor started once the jar is still");
        s.await();
        assertFalse(Files.exists(set.stateFile()));
    }

    @Test
    void itStopsAfterTheIdleTime(@TempDir Path dir) throws Exception {
        Server.Settings set = new Server.Settings(dir.resolve("s").resolve("d"), null, Duration.ofMillis(300), 8, 1 << 20);
        // taken before the start: the idle timer starts inside it, so a loaded machine that returns from start() late
        // cannot make the measured time shorter than the idle time (it was taken after, and failed under load)
        long t0 = System.nanoTime();   // wall-clock-ok: a lower bound, which load cannot break
        Server s = start(new Echo(), dir, set);
        s.await();
        assertTrue(System.nanoTime() - t0 >= 250_000_000L, "not before the idle time");   // wall-clock-ok: lower bound
        assertFalse(Files.exists(set.stateFile()));
    }
}
