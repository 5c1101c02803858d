package dev.gpulint.daemon;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One {@code run} request: its fields read (jar, working directory, umask, arguments, environment), checked
 * against what a cold run would be (else refused, and the client runs cold), run on the engine's thread when its
 * turn comes within {@link Server.Settings#turnWait} (else refused as busy), and its output handed back frame by frame.
 * Standard input stays with the client: a run that reads it runs cold ({@code Engine#refuses}), so no client holds
 * the engine for as long as its input takes to come.
 */
final class RunRequest {

    /** Variables that shape the JVM itself (locale, time zone, options): a client whose values differ runs cold. */
    static final List<String> JVM_VARIABLES = List.of("LANG", "TZ");
    /** A cold JVM started with one of these says so on standard error ("Picked up ..."): such a client runs cold. */
    static final List<String> JAVA_OPTIONS = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");

    /** The charset a cold JVM decodes its arguments and environment with. */
    private static final Charset NATIVE = nativeCharset();

    private final Server server;
    private final Socket socket;
    private final InputStream in;
    private final Wire.Budget budget;
    private final OutputStream out;

    RunRequest(Server server, Socket socket, InputStream in, Wire.Budget budget) throws IOException {
        this.server = server;
        this.socket = socket;
        this.in = in;
        this.budget = budget;
        this.out = socket.getOutputStream();
    }

    void serve() throws IOException {
        String clientJar = Wire.field(in, 8192, budget, NATIVE);
        String cwd = Wire.field(in, 65536, budget, NATIVE);
        String mask = Wire.line(in, 16);
        int argc = Wire.count(in, budget, 1_000_000);
        List<String> args = new ArrayList<>();
        for (int i = 0; i < argc; i++) args.add(argument(Wire.field(in, 1 << 20, budget)));
        int envc = Wire.count(in, budget, 10_000);
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < envc; i++) {
            String e = Wire.field(in, 1 << 20, budget, NATIVE);
            int eq = e.indexOf('=');
            if (eq > 0) env.put(e.substring(0, eq), e.substring(eq + 1));
        }
        Path real;
        try {
            real = Path.of(cwd).toRealPath();
        } catch (IOException | RuntimeException e) {
            refuse("cwd");
            return;
        }
        String why = mismatch(clientJar, mask, env);
        Invocation inv = new Invocation(args, real, env, InputStream::nullInputStream);
        if (why == null) why = server.engine.refuses(inv);
        if (why != null) {
            refuse(why);
            return;
        }
        if (!server.runs.tryAcquire()) {
            refuse("busy");
            return;
        }
        boolean turn = false;
        try {
            turn = server.turn.tryAcquire(server.settings.turnWait().toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (!turn) server.runs.release();
        }
        if (!turn) {
            refuse("busy");
            return;
        }
        server.active.incrementAndGet();
        try {
            Recording rec = new Recording();
            int code;
            try {
                Future<Integer> run = server.engineThread.submit(() -> server.engine.run(inv, rec.out, rec.err));
                try {
                    code = run.get();
                } catch (ExecutionException e) {
                    rec.err.write(("gpulint: internal error: " + e.getCause() + " (please report it)\n").getBytes(StandardCharsets.UTF_8));
                    code = 2;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            } finally {
                server.turn.release();
                server.runs.release();
            }
            server.served.incrementAndGet();
            deliver(code, rec.chunks());
        } finally {
            server.lastActivity = System.nanoTime();
            server.finished();
        }
    }

    /** Why this client cannot be served as a cold run would serve it, or null. */
    private String mismatch(String clientJar, String mask, Map<String, String> env) {
        if (server.jar != null) {
            if (!server.jar.isSame(Path.of(clientJar))) return "jar";
            if (server.jar.changed()) return "stale";
        }
        try {
            if (Integer.parseInt(mask.trim(), 8) != server.umask) return "umask";
        } catch (NumberFormatException e) {
            return "umask";
        }
        for (String k : JAVA_OPTIONS) if (env.get(k) != null && !env.get(k).isEmpty()) return "java-options";
        Set<String> jvm = new HashSet<>(JVM_VARIABLES);
        for (String k : env.keySet()) if (k.startsWith("LC_")) jvm.add(k);
        for (String k : System.getenv().keySet()) if (k.startsWith("LC_")) jvm.add(k);
        for (String k : jvm) if (!Objects.equals(env.get(k), System.getenv(k))) return "environment";
        return null;
    }

    private void refuse(String why) {
        server.log.println("gpulint daemon: a request runs cold: " + why);
        send(("refused " + why + "\n").getBytes(StandardCharsets.US_ASCII));
    }

    private synchronized void send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            // the client went away (Ctrl-C): the run's output has nowhere to go
        }
    }

    /** "exit CODE", then each chunk as a frame that the client acknowledges with one byte, then "end". */
    private void deliver(int code, List<Recording.Chunk> chunks) throws IOException {
        socket.setSoTimeout(30 * 60 * 1000);     // a client paging through `| less` may take its time
        send(Wire.ascii("exit " + code + "\n"));
        for (Recording.Chunk c : chunks) {
            synchronized (this) {
                out.write(Wire.ascii((c.err() ? "err " : "out ") + c.bytes().length + "\n"));
                out.write(c.bytes());
                out.flush();
            }
            if (in.read() < 0) return;      // the client stopped reading (its standard output closed)
        }
        send(Wire.ascii("end\n"));
    }

    /**
     * An argument as a cold run takes it: decoded in the locale's character set, and, when bytes do not decode (a file
     * name that is not UTF-8), as the names gpulint shows, with {@code \xNN} escapes (what cli.RawArgs recovers from
     * /proc/self/cmdline in a cold run), which {@code PathNames.given} turns back into the file's name.
     */
    static String argument(byte[] raw) {
        String s = new String(raw, NATIVE);
        return s.indexOf('\uFFFD') < 0 ? s : dev.gpulint.core.PathNames.decode(raw);
    }

    private static Charset nativeCharset() {
        try {
            return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (RuntimeException e) {
            return StandardCharsets.UTF_8;
        }
    }
}
