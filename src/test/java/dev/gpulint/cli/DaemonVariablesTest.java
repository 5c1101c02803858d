package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * bin/gpulint hands the daemon the variables the engine reads, by name (daemon_vars), and the locale's by prefix: a
 * variable that the sources read and the launcher does not pass would make a warm run differ from a cold one; one
 * passed by a prefix that the engine does not read (GITHUB_TOKEN, a CI's secrets) would go to the daemon for nothing.
 */
class DaemonVariablesTest {

    static final List<String> PREFIXES = List.of("LC_");

    @Test
    void everyVariableTheSourcesReadIsPassedToTheDaemon() throws IOException {
        String launcher = Files.readString(Path.of("../bin/gpulint"));
        Matcher list = Pattern.compile("(?m)^daemon_vars=\\(([^)]*)\\)").matcher(launcher);
        assertTrue(list.find(), "bin/gpulint lists daemon_vars");
        Set<String> passed = Set.of(list.group(1).trim().split("\\s+"));
        for (String p : PREFIXES) assertTrue(launcher.contains("${!" + p + "@}"), "bin/gpulint passes the variables " + p + "*");
        for (String p : List.of("GITHUB_", "CI_", "GPULINT_")) {
            assertFalse(launcher.contains("${!" + p + "@}"), "bin/gpulint passes every variable " + p + "*, secrets included");
        }
        Set<String> read = new TreeSet<>();
        Pattern use = Pattern.compile("(?:env\\.apply|getenv|env::apply\\)?\\.apply)\\(\"([A-Z_][A-Z0-9_]*)\"\\)");
        List<Path> sources;
        try (Stream<Path> walk = Files.walk(Path.of("main/java"))) {
            sources = walk.filter(p -> p.toString().endsWith(".java")).toList();
        }
        for (Path p : sources) {
            if (p.toString().contains("/daemon/") || p.getFileName().toString().equals("DiscoverCommand.java")) continue;
            String text = Files.readString(p);
            Matcher m = use.matcher(text);
            while (m.find()) read.add(m.group(1));
            // through a constant: env.apply(STDOUT_TTY) with STDOUT_TTY = "GPULINT_STDOUT_TTY"
            Matcher c = Pattern.compile("env\\.apply\\(([A-Z_][A-Z0-9_]*)\\)").matcher(text);
            while (c.find()) {
                Matcher v = Pattern.compile("\\b" + c.group(1) + "\\s*=\\s*\"([A-Z_][A-Z0-9_]*)\"").matcher(text);
                if (v.find()) read.add(v.group(1));
            }
        }
        assertTrue(read.containsAll(List.of("COLUMNS", "NO_COLOR", "GITHUB_WORKSPACE", "CI_PROJECT_DIR", "GPULINT_STDOUT_TTY")),
                "the scan finds the variables: " + read);
        List<String> missing = new ArrayList<>();
        for (String v : read) if (!passed.contains(v) && PREFIXES.stream().noneMatch(v::startsWith)) missing.add(v);
        assertTrue(missing.isEmpty(), "read by the engine, not passed to the daemon by bin/gpulint: " + missing);
    }
}
