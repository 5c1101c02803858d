package dev.gpulint.engine;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Lazy;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.drools.model.Model;
import org.drools.modelcompiler.KieBaseBuilder;
import org.kie.api.KieBase;
import org.kie.api.runtime.KieSession;

/**
 * The built-in rules, compiled to Drools' executable model at build time by
 * kie-maven-plugin, loaded directly from the generated index (no kmodule.xml,
 * no KieContainer): ~0.3 s cold start instead of ~2.5 s for DRL compiled at
 * run time (measured when the engine was chosen; bench/bench.py measures the whole start).
 */
public final class RuleEngine {

    static final String MODEL_INDEX = "META-INF/kie/dev.gpulint/gpulint/drools-model";

    /** A rule that fires more often than this in one run is stopped: a runaway rule must not hang a commit hook. */
    static final int MAX_FIRINGS = 1_000_000;

    private static final Lazy<KieBase> BUILT_IN = new Lazy<>(RuleEngine::load);

    public static KieBase builtInKieBase() { return BUILT_IN.get(); }

    private static KieBase load() {
        ClassLoader cl = RuleEngine.class.getClassLoader();
        List<Model> models = new ArrayList<>();
        try (InputStream in = cl.getResourceAsStream(MODEL_INDEX)) {
            if (in == null) throw new IllegalStateException("the compiled rules are missing (" + MODEL_INDEX + "); rebuild gpulint");
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                line = line.trim();
                if (line.isEmpty() || line.startsWith("Drools-Model-Version")) continue;
                models.add((Model) Class.forName(line, true, cl).getDeclaredConstructor().newInstance());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot load compiled rules: " + e, e);
        }
        return KieBaseBuilder.createKieBaseFromModel(models);
    }

    /** Runs every built-in rule over the facts of one lint run. */
    public List<Finding> run(List<Object> facts) {
        return run(builtInKieBase(), facts, "built-in rules", firingLimit(facts.size()), dev.gpulint.core.Span.at("gpulint", 1, 1));
    }

    /**
     * As {@link #run(List)}, the findings without their words ({@link FindingSink#unworded}): rule, level, place and
     * identity only. For the plan's candidate search, which reads which rules fired about which candidate.
     */
    public List<Finding> runUnworded(List<Object> facts) {
        return run(builtInKieBase(), facts, "built-in rules", firingLimit(facts.size()), dev.gpulint.core.Span.at("gpulint", 1, 1),
                new FindingSink().unworded());
    }

    /**
     * The built-in rules fire a bounded number of times per fact; a fleet file with a million node
     * groups rightly fires a million notes, so the runaway limit grows with the facts.
     */
    static int firingLimit(int facts) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(MAX_FIRINGS, 16L * facts));
    }

    /**
     * Runs the rules of a KieBase over the facts. A rule base that fires more than {@code limit}
     * times is stopped (a rule that re-triggers itself would never end), and that is a finding.
     */
    public List<Finding> run(KieBase kieBase, List<Object> facts, String what, int limit, dev.gpulint.core.Span where) {
        return run(kieBase, facts, what, limit, where, new FindingSink());
    }

    private List<Finding> run(KieBase kieBase, List<Object> facts, String what, int limit, dev.gpulint.core.Span where, FindingSink sink) {
        KieSession session = kieBase.newKieSession();
        session.addEventListener(sink.listener());
        List<Finding> out = new ArrayList<>();
        try {
            boolean declared = kieBase.getKiePackages().stream()
                    .anyMatch(p -> p.getGlobalVariables().stream().anyMatch(g -> g.getName().equals("sink")));
            if (declared) session.setGlobal("sink", sink);
            for (Object f : facts) session.insert(f);
            int fired = session.fireAllRules(limit);
            out.addAll(sink.findings());
            if (fired >= limit) {
                out.add(Finding.of("TOOL001", where, "rules#runaway",
                        "the " + what + " fired " + fired + " times and were stopped: a rule keeps re-triggering itself "
                                + "(it modifies or inserts facts its own conditions match)"));
            }
        } finally {
            session.dispose();
        }
        return out;
    }
}
