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
 * failure is both a SYN001 result and a tool execution notification, and so is a failure of gpulint itself (TOOL001).
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
     * @throws IllegalArgumentException when the base is no absolute URI (see {@link #helpUriBaseProblem})
     */
    public SarifRenderer helpUriBase(String base) {
        String problem = helpUriBaseProblem(base);
        if (problem != null) throw new IllegalArgumentException("the help URI base " + problem);
        this.helpUriBase = base;
        return this;
    }

    /**
     * A category for this run ({@code --sarif-category}): the automation id becomes
     * {@code gpulint/CATEGORY/}. Null: {@code gpulint/}.
     */
    public SarifRenderer category(String c) {
        String problem = categoryProblem(c);
        if (problem != null) throw new IllegalArgumentException("the SARIF category " + problem);
        this.category = c == null ? null : trimSlashes(c);
        return this;
    }

    /** What is wrong with a category given by the user, said after the option's name, or null. */
    public static String categoryProblem(String category) {
        if (category == null) return null;
        if (trimSlashes(category).isBlank()) return "must name a category, e.g. training-jobs";
        for (char c : category.toCharArray()) {
            if (Character.isISOControl(c)) return "must not contain control characters";
        }
        return null;
    }

    /** What is wrong with a help URI base given by the user, said after the option's name, or null. */
    public static String helpUriBaseProblem(String helpUriBase) {
        if (helpUriBase == null) return null;
        String probe = helpUriBase.replace("{id}", "PAR001");
        try {
            java.net.URI u = new java.net.URI(probe);
            if (!u.isAbsolute() || u.isOpaque()) {
                return "must be an absolute URI such as https://example.com/gpulint/docs/rules/ (got '"
                        + Visible.of(helpUriBase) + "')";
            }
        } catch (java.net.URISyntaxException e) {
            return "is not a URI: " + Visible.of(e.getMessage());
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
        result = ReportPaths.stable(result);     // the same bytes from any working directory
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
        driver.put("informationUri", dev.gpulint.meta.Version.home());
        driver.put("rules", ruleObjects);

        List<Object> results = new ArrayList<>();
        List<Object> notifications = new ArrayList<>();
        int written = 0;
        for (Finding f : result.findings()) {
            if (written < maxResults) {
                results.add(result(f, ruleIds.indexOf(f.ruleId()), result));
                written++;
            }
            if (f.ruleId().equals("SYN001") || f.ruleId().equals("TOOL001")) {
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("level", "error");
                n.put("message", Map.of("text", f.message()));
                n.put("locations", List.of(Map.of("physicalLocation", physical(f.span(), result.paths()))));
                n.put("descriptor", Map.of("id", f.ruleId()));
                notifications.add(n);
            }
        }
        int left = result.findings().size() - written;
        if (left > 0) notifications.add(capNotice(left, written));
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

    /**
     * GitHub code scanning rejects an upload with more than 25,000 results in a run
     * (docs.github.com, "SARIF support for code scanning", upload limits): a run keeps the first
     * results in report order (errors and their files first, as settled) and says in a notification
     * how many it left out.
     */
    public static final int GITHUB_MAX_RESULTS = 25_000;

    private int maxResults = GITHUB_MAX_RESULTS;

    /** At most this many results in the run ({@link #GITHUB_MAX_RESULTS} by default); a notification counts the rest. */
    public SarifRenderer maxResults(int n) {
        if (n < 1) throw new IllegalArgumentException("at least one result");
        this.maxResults = n;
        return this;
    }

    private static Map<String, Object> capNotice(int left, int written) {
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("level", "warning");
        n.put("message", Map.of("text", left + " more result" + (left == 1 ? " was" : "s were") + " left out of this run: it holds "
                + "the first " + written + ", the most GitHub code scanning accepts in one run. Fix or baseline those first "
                + "(--write-baseline), or lint fewer files per run (--sarif-category tells the runs apart)."));
        n.put("descriptor", Map.of("id", "gpulint/results-capped"));
        return n;
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
        m.put("message", Map.of("text", linked(f)));
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
        if (!f.fixes().isEmpty()) m.put("fixes", SarifFixes.of(f, run.paths()));
        if (f.suppressed()) {
            Map<String, Object> sup = new LinkedHashMap<>();
            sup.put("kind", "inSource");
            sup.put("justification", f.suppression());
            m.put("suppressions", List.of(sup));
        }
        return m;
    }

    /**
     * The message, with each related location linked from it as SARIF's embedded links ("[text](id)",
     * SARIF 2.1.0 §3.11.6, ids as in relatedLocations): GitHub code scanning shows related
     * locations only when the message links them, as CodeQL's messages do. Brackets and backslashes
     * of the text are escaped with a backslash, as §3.11.6 asks, so no text reads as a link.
     */
    static String linked(Finding f) {
        if (f.related().isEmpty()) return f.message();
        StringBuilder sb = new StringBuilder(escape(f.message()));
        sb.append(sb.length() > 0 && !Character.isWhitespace(sb.charAt(sb.length() - 1)) ? " " : "").append("Related: ");
        int id = 1;
        for (Finding.Related r : f.related()) {
            if (id > 1) sb.append("; ");
            String text = r.message().isBlank() ? "related location" : r.message();
            sb.append('[').append(escape(text)).append("](").append(id++).append(')');
        }
        return sb.append('.').toString();
    }

    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]");
    }

    /** A file's artifactLocation: under %SRCROOT% when inside the project root, else an absolute file URI. */
    static Map<String, Object> artifact(String file, dev.gpulint.core.ProjectPaths paths) {
        Map<String, Object> art = new LinkedHashMap<>();
        String rel = paths.underRoot(file);
        Path abs = paths.absolute(file);
        if (rel == null && abs != null) {
            art.put("uri", abs.toUri().toString());          // outside the project root: an absolute file URI
        } else {
            art.put("uri", uri(rel != null ? rel : file));
            art.put("uriBaseId", SRCROOT);
        }
        return art;
    }

    private Map<String, Object> physical(Span s, dev.gpulint.core.ProjectPaths paths) {
        Map<String, Object> art = artifact(s.file(), paths);
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
