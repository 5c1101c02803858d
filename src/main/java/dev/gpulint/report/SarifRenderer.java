package dev.gpulint.report;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Fingerprints;

import dev.gpulint.core.LintResult;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.meta.RuleMeta;
import dev.gpulint.core.Span;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SARIF 2.1.0 for code-review tools: full rule metadata, URIs relative to the project root
 * (base id %SRCROOT%, stated in originalUriBaseIds; the root comes with the result,
 * {@link dev.gpulint.core.LintResult#paths()}), full regions, related locations and partial fingerprints. A parse
 * failure is both a SYN001 result and a tool execution notification.
 *
 * <p>Each run says what it is ({@code run.automationDetails.id}, {@code gpulint/} and an optional
 * category, which GitHub code scanning uses to tell analyses of one commit apart, as it does CodeQL's
 * {@code --sarif-category}). Rules carry their help text and markdown in full; a
 * {@code helpUri} is written only when the user names where the help pages are published
 * ({@link #helpUriBase}), never a guessed address.
 */
public final class SarifRenderer implements Renderer {
    public static final String SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
    /** The automation id's first segment: every gpulint run's category starts with it. */
    public static final String TOOL_CATEGORY = "gpulint";
    static final String SRCROOT = "%SRCROOT%";

    private final RuleCatalog rules;
    private final String version;
    private String helpUriBase;
    private String category;

    public SarifRenderer(RuleCatalog rules, String version) {
        this.rules = rules;
        this.version = version;
    }

    private boolean portable;

    /**
     * For a baseline (--write-baseline), committed and read on every clone: %SRCROOT% is described, not
     * given as the writer's absolute folder, so the same findings write the same bytes on every machine.
     */
    public SarifRenderer portable() {
        this.portable = true;
        return this;
    }

    /** @deprecated the project root now comes with the result ({@link dev.gpulint.core.LintResult#paths()}); srcRoot is not used */
    @Deprecated
    public SarifRenderer(RuleCatalog rules, String version, Path srcRoot) {
        this(rules, version);
    }

    /**
     * Where the rules' help pages are published: each rule's {@code helpUri} is this base followed by
     * {@code ID.md} (the layout of docs/rules/), or, when the base contains {@code {id}}, the base with
     * the rule ID in its place. Null (the default): no helpUri, the help is in the file.
     * @throws IllegalArgumentException when the base is no absolute URI (see {@link #optionProblem})
     */
    public SarifRenderer helpUriBase(String base) {
        String problem = optionProblem(null, base);
        if (problem != null) throw new IllegalArgumentException(problem);
        this.helpUriBase = base;
        return this;
    }

    /**
     * A category for this run ({@code --sarif-category}): the automation id becomes
     * {@code gpulint/CATEGORY/}. Null: {@code gpulint/}.
     */
    public SarifRenderer category(String c) {
        String problem = optionProblem(c, null);
        if (problem != null) throw new IllegalArgumentException(problem);
        this.category = c == null ? null : trimSlashes(c);
        return this;
    }

    /** What is wrong with a category or a help URI base given by the user, or null. */
    public static String optionProblem(String category, String helpUriBase) {
        if (category != null) {
            if (trimSlashes(category).isBlank()) return "--sarif-category must name a category, e.g. training-jobs";
            for (char c : category.toCharArray()) {
                if (Character.isISOControl(c)) return "--sarif-category must not contain control characters";
            }
        }
        if (helpUriBase != null) {
            String probe = helpUriBase.replace("{id}", "PAR001");
            try {
                java.net.URI u = new java.net.URI(probe);
                if (!u.isAbsolute() || u.isOpaque()) {
                    return "--help-uri-base must be an absolute URI such as https://example.com/gpulint/docs/rules/ (got '"
                            + Visible.of(helpUriBase) + "')";
                }
            } catch (java.net.URISyntaxException e) {
                return "--help-uri-base is not a URI: " + Visible.of(e.getMessage());
            }
        }
        return null;
    }

    private static String trimSlashes(String s) {
        return s.strip().replaceAll("^/+|/+$", "");
    }

    /** The run's automation id: {@code gpulint/} or {@code gpulint/CATEGORY/} (no instance part: runs stay comparable). */
    String automationId() {
        return TOOL_CATEGORY + "/" + (category == null ? "" : category + "/");
    }

    /** A rule's help page under the configured base, or null when none was configured. */
    String helpUri(String id) {
        if (helpUriBase == null) return null;
        return helpUriBase.contains("{id}") ? helpUriBase.replace("{id}", id) : helpUriBase + id + ".md";
    }

    @Override
    public void render(LintResult result, Writer out) throws IOException {
        List<String> ruleIds = new ArrayList<>();
        List<Object> ruleObjects = new ArrayList<>();
        for (RuleMeta r : rules.all()) {
            ruleIds.add(r.id());
            ruleObjects.add(rule(r));
        }
        Map<String, Object> driver = new LinkedHashMap<>();
        driver.put("name", "gpulint");
        driver.put("fullName", "gpulint " + version);
        driver.put("version", version);
        driver.put("semanticVersion", version.replace("-SNAPSHOT", ""));
        driver.put("rules", ruleObjects);

        List<Object> results = new ArrayList<>();
        List<Object> notifications = new ArrayList<>();
        for (Finding f : result.findings()) {
            results.add(result(f, ruleIds.indexOf(f.ruleId()), result));
            if (f.ruleId().equals("SYN001")) {
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("level", "error");
                n.put("message", Map.of("text", f.message()));
                n.put("locations", List.of(Map.of("physicalLocation", physical(f.span(), result.paths()))));
                n.put("descriptor", Map.of("id", "SYN001"));
                notifications.add(n);
            }
        }
        Map<String, Object> invocation = new LinkedHashMap<>();
        invocation.put("executionSuccessful", !result.inputFailed());
        if (!notifications.isEmpty()) invocation.put("toolExecutionNotifications", notifications);

        Map<String, Object> run = new LinkedHashMap<>();
        run.put("tool", Map.of("driver", driver));
        run.put("automationDetails", Map.of("id", automationId()));
        run.put("invocations", List.of(invocation));
        String rootUri = result.paths().root().toUri().toString();
        run.put("originalUriBaseIds", Map.of(SRCROOT, portable
                ? Map.of("description", Map.of("text", "the project root: the folder of .gpulint.yaml, else the git top level"))
                : Map.of("uri", rootUri.endsWith("/") ? rootUri : rootUri + "/")));
        run.put("columnKind", "unicodeCodePoints");
        run.put("results", results);

        Map<String, Object> root = new LinkedHashMap<>();
        root.put("$schema", SCHEMA);
        root.put("version", "2.1.0");
        root.put("runs", List.of(run));
        JsonOut.write(root, out);
    }

    private Map<String, Object> rule(RuleMeta r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", r.id());
        m.put("name", r.pascalName());
        m.put("shortDescription", Map.of("text", r.title()));
        m.put("fullDescription", Map.of("text", r.description()));
        Map<String, Object> help = new LinkedHashMap<>();
        help.put("text", r.description() + "\n\nHow to fix: " + r.remediation());
        help.put("markdown", r.helpMarkdown() != null ? r.helpMarkdown() : r.description());
        m.put("help", help);
        String helpUri = helpUri(r.id());
        if (helpUri != null) m.put("helpUri", helpUri);
        m.put("defaultConfiguration", Map.of("level", r.level().id()));
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("tags", r.tags());
        props.put("family", r.family());
        m.put("properties", props);
        return m;
    }

    private Map<String, Object> result(Finding f, int ruleIndex, LintResult run) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ruleId", f.ruleId());
        m.put("ruleIndex", ruleIndex);
        m.put("level", f.level().id());
        m.put("message", Map.of("text", f.message()));
        m.put("locations", List.of(Map.of("physicalLocation", physical(f.span(), run.paths()))));
        if (!f.related().isEmpty()) {
            List<Object> rel = new ArrayList<>();
            int id = 1;
            for (Finding.Related r : f.related()) {
                Map<String, Object> rm = new LinkedHashMap<>();
                rm.put("id", id++);
                rm.put("physicalLocation", physical(r.span(), run.paths()));
                rm.put("message", Map.of("text", r.message()));
                rel.add(rm);
            }
            m.put("relatedLocations", rel);
        }
        m.put("partialFingerprints", Map.of(Fingerprints.KEY, run.fingerprint(f)));
        if (f.suppressed()) {
            Map<String, Object> sup = new LinkedHashMap<>();
            sup.put("kind", "inSource");
            sup.put("justification", f.suppression());
            m.put("suppressions", List.of(sup));
        }
        return m;
    }

    private Map<String, Object> physical(Span s, dev.gpulint.core.ProjectPaths paths) {
        Map<String, Object> art = new LinkedHashMap<>();
        String rel = paths.underRoot(s.file());
        Path abs = paths.absolute(s.file());
        if (rel == null && abs != null) {
            art.put("uri", abs.toUri().toString());          // outside the project root: an absolute file URI
        } else {
            art.put("uri", uri(rel != null ? rel : s.file()));
            art.put("uriBaseId", SRCROOT);
        }
        Map<String, Object> region = new LinkedHashMap<>();
        region.put("startLine", s.startLine());
        region.put("startColumn", s.startColumn());
        region.put("endLine", s.endLine());
        region.put("endColumn", Math.max(s.endColumn(), s.endLine() == s.startLine() ? s.startColumn() + 1 : 1));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("artifactLocation", art);
        m.put("region", region);
        return m;
    }

    /** A relative URI under %SRCROOT% (from a root-relative path): forward slashes, percent-encoded. */
    static String uri(String rel) {
        StringBuilder sb = new StringBuilder();
        for (String seg : rel.split("/")) {
            if (sb.length() > 0) sb.append('/');
            sb.append(java.net.URLEncoder.encode(seg, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return sb.toString();
    }
}
