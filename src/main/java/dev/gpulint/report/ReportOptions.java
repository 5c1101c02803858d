package dev.gpulint.report;

import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.meta.Version;

/**
 * What shapes a report beyond the findings, the same for every front end (the command line's
 * {@code --sarif-category} and {@code --help-uri-base}, the Maven plugin's {@code sarifCategory}
 * and {@code helpUriBase}): the renderers are made here, with the one version ({@link Version}).
 */
public record ReportOptions(String sarifCategory, String helpUriBase) {
    public static final ReportOptions DEFAULT = new ReportOptions(null, null);

    public ReportOptions withSarifCategory(String c) { return new ReportOptions(c, helpUriBase); }

    public ReportOptions withHelpUriBase(String b) { return new ReportOptions(sarifCategory, b); }

    /** What is wrong with the category, without the option's name ("must name a category..."), or null. */
    public String categoryProblem() { return SarifRenderer.categoryProblem(sarifCategory); }

    /** What is wrong with the help URI base, without the option's name, or null. */
    public String helpUriBaseProblem() { return SarifRenderer.helpUriBaseProblem(helpUriBase); }

    /** The SARIF renderer of these options (check the problems first: a bad option throws). */
    public SarifRenderer sarif(RuleCatalog rules) {
        return new SarifRenderer(rules, Version.current()).category(sarifCategory).helpUriBase(helpUriBase);
    }

    /**
     * SARIF for a baseline: no category or help pages, so it compares equal whatever the options, and portable
     * (no absolute root in originalUriBaseIds), so it is the same file on every clone. It holds every finding up to
     * a baseline's own bound ({@link dev.gpulint.settle.Baseline#MAX_FINGERPRINTS}), not GitHub's 25,000-result cap for
     * uploads: a baseline cut there would report the rest as new on the next run.
     */
    public static SarifRenderer baseline(RuleCatalog rules) {
        return new SarifRenderer(rules, Version.current()).portable().maxResults(dev.gpulint.settle.Baseline.MAX_FINGERPRINTS);
    }

    public JsonRenderer json(RuleCatalog rules) {
        return new JsonRenderer(rules, Version.current());
    }

    /** Where rule {@code id}'s help page is published (as SARIF's helpUri), or null when no base is set. */
    public String helpUri(String id) {
        if (helpUriBase == null) return null;
        return helpUriBase.contains("{id}") ? helpUriBase.replace("{id}", id) : helpUriBase + id + ".md";
    }
}
