package dev.gpulint.facts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The fact reference in docs/writing-rules.md is generated from the sources of dev.gpulint.facts:
 * every public getter of every fact, with its type and its Javadoc, and every public helper a rule
 * may call. A getter without Javadoc, or a doc that no longer matches the code, fails the build;
 * regenerate with -Dgpulint.updateDocs=true. An interface of dev.gpulint.facts (SizedFact) has no table of its
 * own: its default getters are each implementing fact's properties, listed in that fact's table after its own.
 */
class FactsDocTest {

    private static final Path SOURCES = Path.of("main", "java", "dev", "gpulint", "facts");
    private static final Path DOC = Path.of("..", "docs", "writing-rules.md");
    private static final String START = "<!-- facts:start (generated from src/main/java/dev/gpulint/facts by FactsDocTest) -->";
    private static final String END = "<!-- facts:end -->";

    private static final Pattern CLASS_DOC = Pattern.compile(
            "/\\*\\*((?:(?!\\*/).)*)\\*/\\s*public (?:final )?(class|record|enum|interface) (\\w+)([^{]*)\\{", Pattern.DOTALL);
    private static final Pattern IMPLEMENTS = Pattern.compile("\\bimplements\\s+([\\w\\s,.<>]+)");
    /** A getter: {@code public} in a class, {@code default} in an interface. */
    private static final Pattern GETTER = Pattern.compile(
            "(?:/\\*\\*((?:(?!\\*/).)*)\\*/)?\\s*(?:public|default) ([\\w<>\\[\\], .?]+?) (get|is)([A-Z]\\w*)\\(\\)", Pattern.DOTALL);
    private static final Pattern HELPER = Pattern.compile(
            "/\\*\\*((?:(?!\\*/).)*)\\*/\\s*public static ([\\w<>\\[\\], .?]+?) (\\w+)\\(([^)]*)\\)", Pattern.DOTALL);

    @Test
    void theFactReferenceIsGeneratedFromTheFacts() throws IOException {
        List<String> undocumented = new ArrayList<>();
        StringBuilder facts = new StringBuilder();
        StringBuilder helpers = new StringBuilder();
        List<Path> files;
        try (Stream<Path> s = Files.list(SOURCES)) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        // the interfaces' getter rows first: a class's table ends with those of the interfaces it implements
        Map<String, List<String>> interfaceRows = new HashMap<>();
        Set<String> inherited = new HashSet<>();
        for (Path p : files) {
            String src = Files.readString(p, StandardCharsets.UTF_8);
            Matcher c = CLASS_DOC.matcher(src);
            if (c.find() && c.group(2).equals("interface")) interfaceRows.put(c.group(3), getterRows(c.group(3), src.substring(c.end()), undocumented));
        }
        for (Path p : files) {
            String src = Files.readString(p, StandardCharsets.UTF_8);
            Matcher c = CLASS_DOC.matcher(src);
            if (!c.find()) { undocumented.add(p.getFileName() + " (class)"); continue; }
            if (c.group(2).equals("interface")) continue;
            String name = c.group(3);
            String body = src.substring(c.end());
            List<String> rows = getterRows(name, body, undocumented);
            Matcher i = IMPLEMENTS.matcher(c.group(4));
            if (i.find()) {
                for (String t : i.group(1).split(",")) {
                    String type = t.strip().replaceAll("<.*", "");
                    if (interfaceRows.containsKey(type)) { rows.addAll(interfaceRows.get(type)); inherited.add(type); }
                }
            }
            if (!rows.isEmpty()) {
                facts.append("### `").append(name).append("`\n\n").append(text(c.group(1))).append("\n\n")
                     .append("| field | type | meaning |\n| --- | --- | --- |\n");
                rows.forEach(r -> facts.append(r).append('\n'));
                facts.append('\n');
                continue;
            }
            Matcher h = HELPER.matcher(body);
            List<String> methods = new ArrayList<>();
            while (h.find()) methods.add("- `" + name + "." + h.group(3) + "(" + params(h.group(4)) + ")`: " + text(h.group(1)));
            if (!methods.isEmpty()) {
                helpers.append("**`").append(name).append("`**: ").append(text(c.group(1))).append("\n\n");
                methods.forEach(m -> helpers.append(m).append('\n'));
                helpers.append('\n');
            }
        }
        for (String type : interfaceRows.keySet()) {
            if (!interfaceRows.get(type).isEmpty() && !inherited.contains(type)) undocumented.add(type + " (getters no fact implements)");
        }
        assertEquals(List.of(), undocumented, "every fact class and getter has Javadoc: it is the reference users read");
        String generated = START + "\n" + facts + "### Helpers for conditions and messages\n\n" + helpers + END;
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        int a = doc.indexOf(START), b = doc.indexOf(END);
        String current = a >= 0 && b > a ? doc.substring(a, b + END.length()) : "";
        if (Boolean.getBoolean("gpulint.updateDocs") && a >= 0 && b > a) {
            Files.writeString(DOC, doc.substring(0, a) + generated + doc.substring(b + END.length()), StandardCharsets.UTF_8);
            current = generated;
        }
        assertEquals(generated, current, "docs/writing-rules.md's fact reference (regenerate with -Dgpulint.updateDocs=true)");
    }

    /** The getter rows of a class's or an interface's body, in source order; a getter with no Javadoc is {@code undocumented}. */
    private static List<String> getterRows(String name, String body, List<String> undocumented) {
        List<String> rows = new ArrayList<>();
        Matcher g = GETTER.matcher(body);
        while (g.find()) {
            if (g.group(2).contains("static")) continue;
            String field = Character.toLowerCase(g.group(4).charAt(0)) + g.group(4).substring(1);
            if (g.group(1) == null || text(g.group(1)).isEmpty()) { undocumented.add(name + "." + field); continue; }
            rows.add("| `" + field + "` | " + g.group(2).strip() + " | " + text(g.group(1)).replace("|", "\\|") + " |");
        }
        return rows;
    }

    /** Javadoc as one line of Markdown. */
    private static String text(String javadoc) {
        String t = javadoc.replaceAll("(?m)^\\s*\\*\\s?", " ").replaceAll("@param.*", "").replaceAll("\\s+", " ").strip();
        t = t.replaceAll("\\{@code ([^}]*)}", "`$1`").replaceAll("\\{@link ([^}]*)}", "`$1`");
        return t.replace("&lt;", "<").replace("&gt;", ">");
    }

    private static String params(String list) {
        List<String> names = new ArrayList<>();
        for (String p : list.split(",")) if (!p.isBlank()) names.add(p.strip().replaceAll(".*\\s", ""));
        return String.join(", ", names);
    }
}
