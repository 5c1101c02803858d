package dev.gpulint.engine;

import dev.gpulint.core.RegularFiles;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.meta.RuleMeta;
import dev.gpulint.core.Span;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.kie.api.KieBase;
import org.kie.api.builder.Message;
import org.kie.api.builder.Results;
import org.kie.api.io.ResourceType;
import org.kie.internal.utils.KieHelper;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Rules a team writes itself (`--rules DIR`, the Maven plugin's rulesDirectory): DRL files in the
 * layout of rules/ (ID.drl with ID.yaml beside it), compiled at run time. A DRL file that does not
 * compile, or a rule without metadata, is a finding with its file and line; the built-in rules run
 * regardless.
 */
public final class UserRules {
    private final KieBase kieBase;
    private final List<RuleMeta> metadata;
    private final List<Finding> problems;

    /** Display paths of the compiled DRL files, in the order KieHelper numbers its resources. */
    private List<String> files = List.of();

    private UserRules(KieBase kieBase, List<RuleMeta> metadata, List<Finding> problems) {
        this.kieBase = kieBase;
        this.metadata = metadata;
        this.problems = problems;
    }

    /** The DRL file a rule of {@link #kieBase()} came from (display path), or the rule's package when unknown. */
    public String fileOf(org.kie.api.definition.rule.Rule rule) {
        try {
            Object res = rule.getClass().getMethod("getResource").invoke(rule);
            if (res instanceof org.kie.api.io.Resource r && r.getSourcePath() != null) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)\\.drl$").matcher(r.getSourcePath());
                if (m.find()) {
                    int idx = Integer.parseInt(m.group(1));
                    if (idx >= 0 && idx < files.size()) return files.get(idx);
                }
                return r.getSourcePath();
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // fall through: the package names the rule set at least
        }
        return rule.getPackageName();
    }

    public KieBase kieBase() { return kieBase; }

    public List<RuleMeta> metadata() { return metadata; }

    public List<Finding> problems() { return problems; }

    /** @param display turns a path into the path shown in findings */
    public static UserRules load(Path dir, java.util.function.Function<Path, String> display) {
        return load(List.of(dir), display);
    }

    /** Several folders (`--rules` and the configuration's rule_paths) compile into one rule base. */
    public static UserRules load(List<Path> dirs, java.util.function.Function<Path, String> display) {
        return load(dirs, display, d -> Span.at(display.apply(d), 1, 1));
    }

    /**
     * @param namedAt where each folder is named (a {@code rule_paths} value of the configuration): a
     *                folder that is missing or cannot be read is a finding there, its rules are not
     *                run, and the other folders' rules and the built-in rules still are
     */
    @SuppressWarnings("unchecked")
    public static UserRules load(List<Path> dirs, java.util.function.Function<Path, String> display,
                                 java.util.function.Function<Path, Span> namedAt) {
        List<Finding> problems = new ArrayList<>();
        List<RuleMeta> metas = new ArrayList<>();
        List<Path> drls = new ArrayList<>();
        for (Path dir : dirs) {
            String shown = display.apply(dir);
            if (!Files.exists(dir)) {
                problems.add(Finding.of("TOOL001", namedAt.apply(dir), "rules/" + shown,
                        "no such folder of rules: '" + shown + "'; its rules were not run"));
                continue;
            }
            if (!Files.isDirectory(dir)) {
                problems.add(Finding.of("TOOL001", namedAt.apply(dir), "rules/" + shown,
                        "'" + shown + "' is a file, not a folder of rules (ID.drl with ID.yaml beside it); its rules were not run"));
                continue;
            }
            // the listing is lazy: a sub-folder that cannot be read fails while streaming (UncheckedIOException)
            try (Stream<Path> s = Files.walk(dir)) {
                drls.addAll(s.filter(p -> p.getFileName().toString().endsWith(".drl")).sorted().toList());
            } catch (IOException | java.io.UncheckedIOException e) {
                IOException io = e instanceof java.io.UncheckedIOException u ? u.getCause() : (IOException) e;
                problems.add(Finding.of("TOOL001", namedAt.apply(dir), "rules/" + shown, "cannot read the rules folder '" + shown + "'"
                        + (io instanceof java.nio.file.AccessDeniedException a && a.getFile() != null
                                && !Path.of(a.getFile()).equals(dir) ? " (" + display.apply(Path.of(a.getFile())) + ")" : "")
                        + ": " + why(io) + "; its rules were not run"));
            }
        }
        KieHelper helper = new KieHelper();
        List<Path> compiled = new ArrayList<>();
        for (Path drl : drls) {
            String id = drl.getFileName().toString().replaceFirst("\\.drl$", "");
            Path meta = drl.resolveSibling(id + ".yaml");
            try {
                if (!Files.isRegularFile(meta)) {
                    problems.add(Finding.of("SYN002", Span.at(display.apply(drl), 1, 1), "rules/" + id,
                            "user rule " + id + " has no metadata: add " + display.apply(meta)
                                    + " with id, name, level, title, description and remediation"));
                    continue;
                }
                Map<String, Object> m = (Map<String, Object>) new Load(LoadSettings.builder().build())
                        .loadFromString(RegularFiles.readString(meta, RegularFiles.SIDE_FILE_LIMIT));
                metas.add(new RuleMeta(String.valueOf(m.getOrDefault("id", id)), String.valueOf(m.getOrDefault("name", id.toLowerCase())),
                        Level.parse(String.valueOf(m.getOrDefault("level", "warning"))), String.valueOf(m.getOrDefault("title", id)),
                        String.valueOf(m.getOrDefault("description", "")).trim(), String.valueOf(m.getOrDefault("remediation", "")).trim(),
                        String.valueOf(m.getOrDefault("since", "")), List.copyOf((List<String>) m.getOrDefault("tags", List.of())),
                        "user", "drools", null, dev.gpulint.meta.RuleCatalog.params(m.get("params")),
                        dev.gpulint.meta.RuleCatalog.messages(m.get("messages"))));
                helper.addContent(RegularFiles.readString(drl, RegularFiles.SIDE_FILE_LIMIT), ResourceType.DRL);
                compiled.add(drl);
            } catch (IOException e) {
                problems.add(Finding.of("TOOL001", Span.at(display.apply(drl), 1, 1), "rules/" + id,
                        "cannot read user rule " + id + " (" + display.apply(drl) + " or its metadata): " + why(e)));
            } catch (RuntimeException e) {
                problems.add(Finding.of("SYN002", Span.at(display.apply(meta), 1, 1), "rules/" + id,
                        "cannot read the metadata of user rule " + id + ": " + e.getMessage()));
            }
        }
        if (compiled.isEmpty()) return new UserRules(null, metas, problems);
        Results results = helper.verify();
        List<Message> errors = results.getMessages(Message.Level.ERROR);
        if (!errors.isEmpty()) {
            for (Message msg : errors) {
                // KieHelper names resources by position: map back to the DRL files we added in order
                String path = msg.getPath();
                Path drl = compiled.get(0);
                if (path != null) {
                    java.util.regex.Matcher mm = java.util.regex.Pattern.compile("(\\d+)\\.drl$").matcher(path);
                    if (mm.find()) {
                        int idx = Integer.parseInt(mm.group(1));
                        if (idx >= 0 && idx < compiled.size()) drl = compiled.get(idx);
                    }
                }
                int line = Math.max(1, msg.getLine());
                problems.add(Finding.of("SYN001", Span.at(display.apply(drl), line, Math.max(1, msg.getColumn() + 1)), "rules",
                        "user rule file does not compile: " + msg.getText().replaceAll("\\s+", " ").trim()));
            }
            return new UserRules(null, metas, problems);
        }
        UserRules built = new UserRules(helper.build(), metas, problems);
        built.files = compiled.stream().map(display).toList();
        return built;
    }

    /** An I/O failure in words. */
    private static String why(IOException e) {
        if (e instanceof java.nio.file.AccessDeniedException) return "permission denied";
        if (e instanceof java.nio.file.NoSuchFileException) return "no such file or folder";
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
