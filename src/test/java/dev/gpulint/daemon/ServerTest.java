package dev.gpulint.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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

    /** Writes "out:ARGS", then "err:$X", then standard input back when an argument is "-"; exit 3. */
    static final class Echo implements Engine {
        final AtomicInteger runs = new AtomicInteger();

        @Override
        public int run(Invocation inv, OutputStream out, OutputStream err) {
            runs.incrementAndGet();
            try {
                out.write(("out:" + String.join(",", inv.args()) + "@" + inv.cwd() + "\n").getBytes(StandardCharsets.UTF_8));
                err.write(("err:" + inv.env().get("X") + "\n").getBytes(StandardCharsets.UTF_8));
                if (inv.args().contains("-")) {
                    try (InputStream in = inv.stdin().get()) {
                        out.write(in.readAllBytes());
                    }
                }
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

    static Client.Reply run(Server s, Path cwd, List<String> args, Map<String, String> extra, byte[] stdin) throws IOException {
        Map<String, String> env = jvmEnv();
        env.putAll(extra);
        return Client.run(s.port(), s.token(), "", cwd.toString(), Client.ownUmask(), args, env, stdin);
    }

    @Test
    void aClientWithoutTheTokenIsRefusedAndNothingRuns(@TempDir Path dir) throws IOException {
        Echo echo = new Echo();
        try (Server s = start(echo, dir, settings(dir))) {
            String wrong = s.token().substring(1) + (s.token().charAt(0) == 'a' ? 'b' : 'a');
            Client.Reply r = Client.run(s.port(), wrong, "", dir.toString(), Client.ownUmask(), List.of("x"), jvmEnv(), new byte[0]);
            assertEquals("token", r.refused());
            // no token at all: the magic, then the request's other fields
            try (Socket raw = new Socket(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), s.port())) {
                raw.getOutputStream().write("gpulint-daemon/1\0run\0\0".getBytes(StandardCharsets.US_ASCII));
                assertEquals("refused token\n", new String(raw.getInputStream().readAllBytes(), StandardCharsets.US_ASCII));
            }
            assertTrue(Client.status(new StateFile.State(0, s.port(), wrong, "", 0)).isEmpty(), "status needs the token too");
            assertEquals(0, echo.runs.get());
            assertEquals(0, s.served());
            Client.Reply ok = run(s, dir, List.of("x"), Map.of(), new byte[0]);
            assertNull(ok.refused());
            assertEquals(1, echo.runs.get());
        }
    }

    @Test
    void framesKeepTheOrderAndStandardInputIsPassedByteForByte(@TempDir Path dir) throws IOException {
        byte[] binary = new byte[300_000];
        for (int i = 0; i < binary.length; i++) binary[i] = (byte) (i * 7);     // NULs, invalid UTF-8, every byte value
        try (Server s = start(new Echo(), dir, settings(dir))) {
            Client.Reply r = run(s, dir, List.of("a b", "", "é", "-"), Map.of("X", "line1\nline2"), binary);
            assertEquals(3, r.code());
            assertEquals(3, r.frames().size(), "out, err, out: " + r.frames());
            assertFalse(r.frames().get(0).err());
            assertTrue(r.frames().get(1).err());
            String head = "out:a b,,é,-@" + dir.toRealPath() + "\n";
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            expected.writeBytes(head.getBytes(StandardCharsets.UTF_8));
            expected.writeBytes(binary);
            assertArrayEquals(expected.toByteArray(), r.out());
            assertEquals("err:line1\nline2\n", new String(r.err(), StandardCharsets.UTF_8));
            assertEquals(1, s.served());
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

    @Test
    void requestsAreBoundedInSizeAndInNumber(@TempDir Path dir) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        Engine slow = new Engine() {
            @Override public int run(Invocation inv, OutputStream out, OutputStream err) {
                running.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);   // wall-clock-ok: frees the slow engine; no assertion
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return 0;
            }
        };
        Server.Settings tight = new Server.Settings(dir.resolve("s").resolve("d"), null, Duration.ofMinutes(5), 0, 2000);
        try (Server s = start(slow, dir, tight)) {
            assertEquals("too-large", run(s, dir, List.of("x".repeat(3000)), Map.of(), new byte[0]).refused());
            CompletableFuture<Client.Reply> first = CompletableFuture.supplyAsync(() -> {
                try {
                    return run(s, dir, List.of("a"), Map.of(), new byte[0]);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            CpuBudget.ofSeconds(30).await(running, "the first request running");
            assertEquals("busy", run(s, dir, List.of("b"), Map.of(), new byte[0]).refused(), "one runs, none may wait");
            release.countDown();
            assertEquals(0, CpuBudget.ofSeconds(30).get(first).code());
        }
    }

    @Test
    void aClientWhoseJvmWouldDifferRunsCold(@TempDir Path dir) throws IOException {
        Echo echo = new Echo();
        try (Server s = start(echo, dir, settings(dir))) {
            assertEquals("java-options", run(s, dir, List.of(), Map.of("JAVA_TOOL_OPTIONS", "-Xmx1g"), new byte[0]).refused());
            String lang = System.getenv("LANG");
            assertEquals("environment", run(s, dir, List.of(), Map.of("LANG", "x".equals(lang) ? "y" : "x"), new byte[0]).refused());
            int other = Client.ownUmask() ^ 0077;
            assertEquals("umask", Client.run(s.port(), s.token(), "", dir.toString(), other, List.of(), jvmEnv(), new byte[0]).refused());
            assertEquals("cwd", run(s, dir.resolve("gone"), List.of(), Map.of(), new byte[0]).refused());
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
        assertNull(Client.run(s.port(), s.token(), jar.toString(), dir.toString(), Client.ownUmask(), List.of(), env, new byte[0]).refused());
        assertEquals("jar", Client.run(s.port(), s.token(), dir.resolve("other.jar").toString(), dir.toString(), Client.ownUmask(),
                List.of(), env, new byte[0]).refused(), "another install's jar");
        Files.writeString(jar, "two, rebuilt");
        assertEquals("stale", Client.run(s.port(), s.token(), jar.toString(), dir.toString(), Client.ownUmask(), List.of(), env,
                new byte[0]).refused());
        CpuBudget.ofSeconds(30).await(successor, "the successor started once the jar is still");
        s.await();
        assertFalse(Files.exists(set.stateFile()));
    }

    @Test
    void itStopsAfterTheIdleTime(@TempDir Path dir) throws Exception {
        Server.Settings set = new Server.Settings(dir.resolve("s").resolve("d"), null, Duration.ofMillis(300), 8, 1 << 20);
        Server s = start(new Echo(), dir, set);
        long t0 = System.nanoTime();   // wall-clock-ok: a lower bound, which load cannot break
        s.await();
        assertTrue(System.nanoTime() - t0 >= 250_000_000L, "not before the idle time");   // wall-clock-ok: lower bound
        assertFalse(Files.exists(set.stateFile()));
    }
}
