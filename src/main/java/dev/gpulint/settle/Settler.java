package dev.gpulint.settle;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Fingerprints;
import dev.gpulint.core.Level;
import dev.gpulint.core.Span;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.meta.RuleMeta;
import dev.gpulint.read.SourceFile;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one place that decides what a run reports and at which level. In order:
 * <ol>
 *   <li>inline suppressions ({@link Suppressions}) mark findings, and problems with the
 *       suppressions themselves join as SYN005 findings;</li>
 *   <li>each finding gets its level (see {@link #level}); a rule set to {@code off} drops it;</li>
 *   <li>one finding is kept per rule, start position and message (the first);</li>
 *   <li>findings are ordered by place, then rule, then message ({@link Finding#ORDER});</li>
 *   <li>findings whose fingerprints are in the baseline are left out, and counted; never a parse error or
 *       a tool failure ({@link Baseline#never}).</li>
 * </ol>
 * Rules, readers and renderers do not set levels: a rule may propose one (FindingSink.reportAs),
 * which this class weighs, and renderers print the level this class chose.
 */
public final class Settler {

    /** The settled findings, and how many more the baseline accepted. */
    public record Settled(List<Finding> findings, int baselined) {
        public Settled {
            findings = List.copyOf(findings);
        }
    }

    private final RuleCatalog rules;
    private final Map<String, String> settings;
    private final Set<String> baseline;
    private final LocalDate today;
    private final dev.gpulint.core.ProjectPaths paths;

    /**
     * @param rules    metadata of every rule that may report, user rules included
     * @param settings configuration {@code rules:}, rule ID or name to off, error, warning or note
     * @param baseline fingerprints of accepted findings (see {@link Baseline})
     * @param today    the date a suppression's {@code until=} is compared with
     */
    public Settler(RuleCatalog rules, Map<String, String> settings, Set<String> baseline, LocalDate today) {
        this(rules, settings, baseline, today, dev.gpulint.core.ProjectPaths.here());
    }

    /**
     * @param paths where the project root is: baseline fingerprints name files relative to it, so a
     *              baseline written at the top of a repository matches runs started anywhere in it
     */
    public Settler(RuleCatalog rules, Map<String, String> settings, Set<String> baseline, LocalDate today,
                   dev.gpulint.core.ProjectPaths paths) {
        this.rules = rules;
        this.settings = Map.copyOf(settings);
        this.baseline = Set.copyOf(baseline);
        this.today = today;
        this.paths = paths;
    }

    /** A settler with no configuration and no baseline. */
    public static Settler of(RuleCatalog rules, LocalDate today) {
        return new Settler(rules, Map.of(), Set.of(), today);
    }

    /** Place, rule and message, then what tells findings with those alike apart: level, identity, suppression, related places. */
    static final java.util.Comparator<Finding> TOTAL = Finding.ORDER
            .thenComparing(f -> f.level() == null ? "" : f.level().name()).thenComparing(Finding::identity)
            .thenComparing(f -> f.suppression() == null ? "" : f.suppression())
            .thenComparing(f -> f.related().toString()).thenComparing(f -> f.fixes().toString());

    /**
     * Settles the raw findings of one run.
     *
     * @param files the linted files, whose comments may suppress findings
     */
    public Settled settle(List<SourceFile> files, List<Finding> raw) {
        // of findings alike (one rule, place and message) the first in a total order is kept: which one (their
        // identities, so fingerprints, may differ) does not depend on the order the stages produced them in
        Map<Key, Finding> kept = new java.util.LinkedHashMap<>();
        for (Finding f : Suppressions.apply(files, raw, rules, today)) {
            Optional<Level> level = level(f);
            if (level.isPresent()) kept.merge(Key.of(f), f.withLevel(level.get()), (a, b) -> TOTAL.compare(a, b) <= 0 ? a : b);
        }
        List<Finding> out = new ArrayList<>(kept.values());
        out.sort(Finding.ORDER);
        int before = out.size();
        if (!baseline.isEmpty()) out.removeIf(f -> !Baseline.never(f) && baseline.contains(Fingerprints.of(f, paths)));
        return new Settled(out, before - out.size());
    }

    /**
     * A finding's level, or empty when its rule is {@code off}. The first that applies: the
     * configuration's setting for the rule's ID, then for its name; the level the rule chose for
     * this finding; the rule's metadata; warning, for a user rule reporting under an ID that has
     * no metadata.
     */
    public Optional<Level> level(Finding f) {
        RuleMeta meta = rules.get(f.ruleId()).orElse(null);
        String setting = settings.get(f.ruleId());
        if (setting == null && meta != null) setting = settings.get(meta.name());
        if ("off".equals(setting)) return Optional.empty();
        if (setting != null) return Optional.of(Level.parse(setting));
        if (f.level() != null) return Optional.of(f.level());
        return Optional.of(meta != null ? meta.level() : Level.WARNING);
    }

    /** What makes two findings one: rule, file, start line and column (not the end), message. */
    private record Key(String ruleId, String file, int line, int column, String message) {
        static Key of(Finding f) {
            Span s = f.span();
            return new Key(f.ruleId(), s.file(), s.startLine(), s.startColumn(), f.message());
        }
    }
}
