package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.daemon.Client;
import dev.gpulint.daemon.Server;
import dev.gpulint.testing.PlanCli;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm command line behind the daemon's socket gives what a direct run gives: the same standard output,
 * standard error and exit code, for reports, usage errors, standard input and other commands; with the request's
 * working directory and environment, never the daemon's.
 */
class DaemonCliTest {

    @AfterEach
    void restore() {
        Main.env = System::getenv;
        Main.workingDir = Path.of("");
        Main.stdin = Main.SYSTEM_IN;
    }

    static Path project(Path repo) throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        CliTest.write(repo, "clusters/pod.yaml", PreCommitSplitTest.CLUSTER);
        CliTest.write(repo, "jobs/job.yaml", StdinCliTest.JOB_TP16);
        CliTest.write(repo, "jobs/broken.yaml", "kind: training_job\nname: [\n");
        return repo;
    }

    private static Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>();
        System.getenv().forEach((k, v) -> {
            if (k.startsWith("LC_") || k.equals("LANG") || k.equals("TZ")) env.put(k, v);
        });
        for (int i = 0; i < pairs.length; i += 2) env.put(pairs[i], pairs[i + 1]);
        return env;
    }

    /** The direct run: Main.run in this process, with the working directory, environment and input given. */
    private static PlanCli.Run direct(Path cwd, Map<String, String> env, byte[] stdin, List<String> args) {
        Main.workingDir = cwd;
        Main.env = env::get;
        Main.stdin = () -> new ByteArrayInputStream(stdin);
        try {
            return PlanCli.run(args.toArray(String[]::new));
        } finally {
            restore0();
        }
    }

    private static void restore0() {
        Main.env = System::getenv;
        Main.workingDir = Path.of("");
        Main.stdin = Main.SYSTEM_IN;
    }

    private static void same(Server s, Path cwd, Map<String, String> env, byte[] stdin, String... args) throws IOException {
        PlanCli.Run want = direct(cwd, env, stdin, List.of(args));
        Client.Reply got = Client.run(s.port(), token(s), "", cwd.toString(), Client.ownUmask(), List.of(args), env);
        assertNull(got.refused(), List.of(args).toString());
        String what = String.join(" ", args) + " in " + cwd;
        assertEquals(want.out(), new String(got.out(), StandardCharsets.UTF_8), what);
        assertEquals(want.err(), new String(got.err(), StandardCharsets.UTF_8), what);
        assertEquals(want.code(), got.code(), what);
    }

    /** The token, as a client reads it from the state file. */
    private static String token(Server s) throws IOException {
        return stateToken.get(s.port());
    }

    private static final Map<Integer, String> stateToken = new HashMap<>();

    private static Server start(Path dir) throws IOException {
        Path state = dir.resolve("state").resolve("daemon-test");
        Server s = Server.start(new WarmCli(), Server.Settings.of(state, null, Duration.ofMinutes(5)),
                new PrintStream(OutputStream.nullOutputStream()));
        Matcher m = Pattern.compile("^1 \\d+ \\d+ (\\w+)").matcher(Files.readString(state));
        assertTrue(m.find());
        stateToken.put(s.port(), m.group(1));
        return s;
    }

    @Test
    void reportsUsageErrorsAndOtherCommandsAreAsDirectRunsGiveThem(@TempDir Path tmp) throws IOException {
        Path repo = project(tmp.resolve("repo"));
        try (Server s = start(tmp)) {
            Map<String, String> plain = env("GPULINT_STDOUT_TTY", "0");
            byte[] none = new byte[0];
            same(s, repo, plain, none);
            same(s, repo, plain, none, "-f", "json", ".");
            same(s, repo, plain, none, "-f", "sarif", "--sarif-category", "x", ".");
            same(s, repo.resolve("jobs"), plain, none, "-q", "job.yaml", "../clusters");
            same(s, repo, plain, none, "--fail-on", "never", "clusters");
            same(s, repo, plain, none, "--bogus");
            same(s, repo, plain, none, "nowhere.yaml");
            same(s, repo, plain, none, "--version");
            same(s, repo, env("COLUMNS", "50"), none, "explain", "PAR002");
            same(s, repo, env("GITHUB_ACTIONS", "true", "GITHUB_WORKSPACE", repo.toString()), none, "jobs", "clusters");
            same(s, repo, env("CI_PROJECT_DIR", "."), none, "-f", "gitlab", "jobs", "clusters");
            // colour: decided from the client's terminal and variables, as a cold run decides it
            same(s, repo, env("GPULINT_STDOUT_TTY", "1"), none, "jobs/job.yaml", "clusters");
            same(s, repo, env("GPULINT_STDOUT_TTY", "1", "NO_COLOR", "1"), none, "jobs/job.yaml", "clusters");
            same(s, repo, env("GPULINT_STDOUT_TTY", "0", "FORCE_COLOR", "1"), none, "jobs/job.yaml", "clusters");
        }
    }

    @Test
    void runsThatReadStandardInputRunCold(@TempDir Path tmp) throws IOException {
        // standard input may take as long as its writer likes: the engine, and every client behind it, would wait for it
        Path repo = project(tmp.resolve("repo"));
        try (Server s = start(tmp)) {
            for (List<String> args : List.of(List.of("-", "clusters"), List.of("--stdin-filename", "jobs/job.yaml", "-f", "json"),
                    List.of("-f", "json", "--stdin-filename=x.yaml"))) {
                Client.Reply r = Client.run(s.port(), token(s), "", repo.toString(), Client.ownUmask(), args, env());
                assertEquals("stdin", r.refused(), args.toString());
            }
        }
    }

    @Test
    void testRulesTakesItsFolderFromTheClientsWorkingDirectory(@TempDir Path tmp) throws IOException {
        Path repo = project(tmp.resolve("repo"));
        TeamRule.teamRule(repo.resolve("team"));
        CliTest.write(repo, "team/TEAM001.test.yaml", """
                rule: TEAM001
                cases:
                  - name: two nodes
                    files:
                      j.yaml: "kind: training_job\\nname: j\\nnodes: 2\\n"
                    expect:
                      - { file: j.yaml, line: 3, column: 8, message: "job 'j' asks for 2 nodes." }
                """);
        try (Server s = start(tmp)) {
            Map<String, String> plain = env("GPULINT_STDOUT_TTY", "0");
            // the folder is the client's team/, not one beside the daemon's own working directory
            PlanCli.Run direct = direct(repo, plain, new byte[0], List.of("test-rules", "team"));
            assertTrue(direct.out().endsWith("1 passed, 0 failed\n"), direct.out() + direct.err());
            same(s, repo, plain, new byte[0], "test-rules", "team");
            same(s, repo, plain, new byte[0], "test-rules", "team/");
        }
    }

    @Test
    void reportFilesAreWrittenFromTheClientsFolder(@TempDir Path tmp) throws IOException {
        Path repo = project(tmp.resolve("repo"));
        try (Server s = start(tmp)) {
            Map<String, String> plain = env("GPULINT_STDOUT_TTY", "0");
            PlanCli.Run want = direct(repo, plain, new byte[0], List.of("-f", "sarif", "-o", "out/r.sarif", "jobs", "clusters"));
            String wantFile = Files.readString(repo.resolve("out/r.sarif"));
            Files.delete(repo.resolve("out/r.sarif"));
            Client.Reply got = Client.run(s.port(), token(s), "", repo.toString(), Client.ownUmask(),
                    List.of("-f", "sarif", "-o", "out/r.sarif", "jobs", "clusters"), plain);
            assertEquals(want.code(), got.code());
            assertEquals(wantFile, Files.readString(repo.resolve("out/r.sarif")));
            assertEquals(want.out() + want.err(), new String(got.out(), StandardCharsets.UTF_8) + new String(got.err(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void discoverDaemonAndTheLanguageServerRunCold(@TempDir Path tmp) throws IOException {
        try (Server s = start(tmp)) {
            for (List<String> args : List.of(List.of("discover", "status"), List.of("daemon", "status"), List.of("lsp"),
                    List.of("--help-uri-base", "https://x/", "lsp"))) {
                Client.Reply r = Client.run(s.port(), token(s), "", tmp.toString(), Client.ownUmask(), args, env());
                assertEquals("command", r.refused(), args.toString());
            }
        }
    }
}
