package dev.gpulint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** The rule cases of rules/&lt;family&gt;/ID.test.yaml (ARCHITECTURE.md, "Rules on disk"). */
public final class RuleCases {
    private RuleCases() {}

    public static final Path RULES = Path.of("..", "rules");

    public record Expected(String file, int line, int column, String message, List<int[]> related, String relatedFile, String level) {}

    public record Case(String rule, String name, Map<String, String> files, List<Expected> expect, Path source) {}

    public static List<Path> testFiles() throws IOException {
        try (Stream<Path> s = Files.walk(RULES)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".test.yaml")).sorted().toList();
        }
    }

    @SuppressWarnings("unchecked")
    public static List<Case> load(Path file) throws IOException {
        Map<String, Object> root = (Map<String, Object>) new Load(LoadSettings.builder().build())
                .loadFromString(Files.readString(file, StandardCharsets.UTF_8));
        String rule = (String) root.get("rule");
        List<Case> cases = new ArrayList<>();
        for (Map<String, Object> c : (List<Map<String, Object>>) root.get("cases")) {
            List<Expected> expect = new ArrayList<>();
            for (Map<String, Object> e : (List<Map<String, Object>>) c.get("expect")) {
                List<int[]> related = new ArrayList<>();
                String relatedFile = null;
                for (Map<String, Object> r : (List<Map<String, Object>>) e.getOrDefault("related", List.of())) {
                    related.add(new int[] {((Number) r.get("line")).intValue(), ((Number) r.get("column")).intValue()});
                    relatedFile = (String) r.get("file");
                }
                expect.add(new Expected((String) e.get("file"), ((Number) e.get("line")).intValue(),
                        ((Number) e.get("column")).intValue(), (String) e.get("message"),
                        e.containsKey("related") ? related : null, relatedFile, (String) e.get("level")));
            }
            cases.add(new Case(rule, (String) c.get("name"), (Map<String, String>) c.get("files"), expect, file));
        }
        return cases;
    }
}
