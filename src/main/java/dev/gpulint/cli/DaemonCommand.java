package dev.gpulint.cli;

import dev.gpulint.daemon.Client;
import dev.gpulint.daemon.Server;
import dev.gpulint.daemon.Spawner;
import dev.gpulint.daemon.StateFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gpulint daemon start|stop|status}: a warm gpulint that bin/gpulint hands its runs to (docs/daemon.md). */
@Command(name = "daemon", description = "Keep a warm gpulint running for bin/gpulint, so a run takes milliseconds: start, stop or "
        + "status (serve runs it in the foreground). Exit codes: status 0 running, 3 not running.")
final class DaemonCommand implements Callable<Integer> {

    enum Action { start, stop, status, serve }

    @Parameters(index = "0", paramLabel = "ACTION", description = "start, stop, status or serve")
    Action action;

    @Option(names = "--idle-timeout", paramLabel = "DURATION",
            description = "stop after this long without a request: a number with s, m, h or d (default: ${DEFAULT-VALUE})")
    String idleTimeout = "3h";

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    static final int NOT_RUNNING = 3;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Duration idle = duration(idleTimeout);
        if (idle == null) {
            err.println("gpulint: --idle-timeout " + idleTimeout + ": give a number with s, m, h or d, from 1s to 30d (3h, 90m)");
            return Main.BAD_INPUT;
        }
        Path jar = ownJar();
        if (jar == null) {
            err.println("gpulint: the daemon runs from gpulint's jar (bin/gpulint daemon start); these are loose classes");
            return Main.BAD_INPUT;
        }
        Path state = StateFile.of(Main.env, jar);
        Optional<StateFile.State> st = StateFile.read(state);
        Optional<Map<String, String>> running = st.flatMap(Client::status);
        switch (action) {
            case status -> {
                if (running.isEmpty()) {
                    if (st.isPresent()) Files.deleteIfExists(state);      // left by a daemon that was killed
                    out.println("gpulint daemon: not running");
                    return NOT_RUNNING;
                }
                out.println(describe(running.get(), "running"));
                out.println("  jar: " + running.get().get("jar"));
                out.println("  state file: " + state + " (log: " + Spawner.log(state) + ")");
                return Main.OK;
            }
            case stop -> {
                if (running.isEmpty() || !Client.stop(st.get())) {
                    out.println("gpulint daemon: not running");
                    return Main.OK;
                }
                Optional<ProcessHandle> p = ProcessHandle.of(st.get().pid());
                long end = System.nanoTime() + 10_000_000_000L;
                while (p.isPresent() && p.get().isAlive() && System.nanoTime() < end) Thread.sleep(20);
                out.println(describe(running.get(), "stopped"));
                return Main.OK;
            }
            case start -> {
                if (running.isPresent()) {
                    out.println(describe(running.get(), "already running"));
                    return Main.OK;
                }
                return start(jar, state, idle, out, err);
            }
            case serve -> {
                return serve(jar, state, idle, err);
            }
            default -> throw new IllegalStateException(action.name());
        }
    }

    private static int start(Path jar, Path state, Duration idle, PrintWriter out, PrintWriter err) throws Exception {
        Process p;
        try {
            p = Spawner.spawn(Spawner.command(jar, idle), state);
        } catch (IOException e) {
            err.println("gpulint: cannot start the daemon: " + e.getMessage());
            return Main.BAD_INPUT;
        }
        long end = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < end) {
            Optional<Map<String, String>> up = StateFile.read(state).flatMap(Client::status);
            if (up.isPresent()) {
                out.println(describe(up.get(), "started") + "; stop it with gpulint daemon stop");
                return Main.OK;
            }
            if (!p.isAlive()) break;
            Thread.sleep(50);
        }
        err.println("gpulint: the daemon did not start; its log, " + Spawner.log(state) + ", ends with:");
        List<String> log = Files.exists(Spawner.log(state)) ? Files.readAllLines(Spawner.log(state)) : List.of();
        for (String l : log.subList(Math.max(0, log.size() - 20), log.size())) err.println("  " + l);
        p.destroy();
        return Main.BAD_INPUT;
    }

    @SuppressWarnings("removal")
    private static int serve(Path jar, Path state, Duration idle, PrintWriter err) throws Exception {
        // a Ctrl-C or a closed terminal meant for whoever started it must not stop it: `daemon stop`, the idle time or SIGTERM do
        for (String sig : List.of("INT", "HUP")) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(sig), sun.misc.SignalHandler.SIG_IGN);
            } catch (IllegalArgumentException e) {
                // not a signal on this system
            }
        }
        WarmCli engine = new WarmCli();
        engine.warmUp(3000);
        Server server = Server.start(engine, Server.Settings.of(state, jar, idle), System.err);
        server.onStale = () -> {
            try {
                Spawner.spawn(Spawner.command(jar, idle), state);
            } catch (IOException e) {
                System.err.println("gpulint daemon: cannot start the successor: " + e.getMessage());
            }
        };
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "gpulint-daemon-stop"));
        System.err.println("gpulint daemon: pid " + ProcessHandle.current().pid() + " listening on 127.0.0.1:" + server.port()
                + ", idle timeout " + human(idle.toSeconds()));
        err.flush();
        server.await();
        return Main.OK;
    }

    static String describe(Map<String, String> s, String what) {
        long up = (System.currentTimeMillis() - Long.parseLong(s.get("started"))) / 1000;
        long served = Long.parseLong(s.get("served"));
        return "gpulint daemon: " + what + ", pid " + s.get("pid") + ", port " + s.get("port") + ", up " + human(up) + ", "
                + served + (served == 1 ? " request" : " requests") + " served, idle timeout " + human(Long.parseLong(s.get("idle-timeout")));
    }

    static String human(long seconds) {
        if (seconds < 60) return seconds + " s";
        if (seconds < 3600) return seconds / 60 + " min" + (seconds % 60 == 0 ? "" : " " + seconds % 60 + " s");
        if (seconds < 86400) return seconds / 3600 + " h" + (seconds % 3600 / 60 == 0 ? "" : " " + seconds % 3600 / 60 + " min");
        return seconds / 86400 + " d" + (seconds % 86400 / 3600 == 0 ? "" : " " + seconds % 86400 / 3600 + " h");
    }

    private static final Pattern DURATION = Pattern.compile("(\\d{1,7})([smhd])");

    /** "90s", "30m", "3h", "2d", from 1 s to 30 days; null when it is not one. */
    static Duration duration(String s) {
        Matcher m = DURATION.matcher(s.trim());
        if (!m.matches()) return null;
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
        return d.isZero() || d.compareTo(Duration.ofDays(30)) > 0 ? null : d;
    }

    /** The jar these classes run from, or null when they are loose classes (tests). */
    static Path ownJar() {
        try {
            Path p = Path.of(DaemonCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Files.isRegularFile(p) ? p.toRealPath() : null;
        } catch (Exception e) {
            return null;
        }
    }
}
