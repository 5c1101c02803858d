package dev.gpulint.engine;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import java.time.Duration;
import dev.gpulint.meta.RuleMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.kie.api.KieBase;
import org.kie.api.definition.rule.Rule;
import org.kie.api.event.rule.AfterMatchFiredEvent;
import org.kie.api.event.rule.BeforeMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;
import org.kie.api.runtime.KieSession;

/**
 * Runs a team's own rules, which are arbitrary Java, so that they cannot take the run down: on a
 * worker thread, within a wall-clock budget. A consequence that throws (a StackOverflowError or an
 * OutOfMemoryError too) is a finding naming the rule and its file; a run past the budget is halted
 * and abandoned (a consequence looping inside plain Java cannot be stopped, so its daemon thread is
 * left behind), and that is a finding too. The built-in rules' findings are unaffected.
 */
public final class UserRuleRun {
    /** The default wall-clock budget of the user rules in one run. */
    public static final Duration DEFAULT_BUDGET = Duration.ofSeconds(60);

    private UserRuleRun() {}

    /**
     * @param fileOf the display path of the DRL file a rule came from
     */
    public static List<Finding> run(KieBase kieBase, List<Object> facts, String what, int limit, Span where,
                                    Duration budget, Function<Rule, String> fileOf) {
        return run(kieBase, facts, what, limit, where, budget, fileOf, List.of());
    }

    /**
     * @param fileOf the display path of the DRL file a rule came from
     * @param metadata the user rules' metadata, whose {@code messages:} their {@code sink.at(...).report(key)} use
     */
    public static List<Finding> run(KieBase kieBase, List<Object> facts, String what, int limit, Span where,
                                    Duration budget, Function<Rule, String> fileOf, List<RuleMeta> metadata) {
        AtomicReference<Rule> current = new AtomicReference<>();
        AtomicReference<KieSession> session = new AtomicReference<>();
        Map<String, Map<String, String>> own = new HashMap<>();
        for (RuleMeta m : metadata) own.put(m.id(), m.messages());
        FindingSink sink = new FindingSink(id -> own.getOrDefault(id, Map.of()));
        CompletableFuture<Integer> fired = new CompletableFuture<>();
        Thread worker = new Thread(() -> {
            try {
                KieSession s = kieBase.newKieSession();
                session.set(s);
                s.addEventListener(sink.listener());
                s.addEventListener(new DefaultAgendaEventListener() {
                    @Override public void beforeMatchFired(BeforeMatchFiredEvent e) { current.set(e.getMatch().getRule()); }
                    @Override public void afterMatchFired(AfterMatchFiredEvent e) { current.set(null); }
                });
                boolean declared = kieBase.getKiePackages().stream()
                        .anyMatch(p -> p.getGlobalVariables().stream().anyMatch(g -> g.getName().equals("sink")));
                if (declared) s.setGlobal("sink", sink);
                for (Object f : facts) s.insert(f);
                int n = s.fireAllRules(limit);
                s.dispose();
                fired.complete(n);
            } catch (Throwable t) {
                fired.completeExceptionally(t);
            }
        }, "gpulint-user-rules");
        worker.setDaemon(true);
        worker.start();
        List<Finding> out = new ArrayList<>();
        try {
            int n = fired.get(budget.toMillis(), TimeUnit.MILLISECONDS);
            out.addAll(sink.findings());
            if (n >= limit) {
                out.add(Finding.of("TOOL001", where, "rules#runaway", "the " + what + " fired " + n + " times and were stopped: "
                        + "a rule keeps re-triggering itself (it modifies or inserts facts its own conditions match)"));
            }
        } catch (TimeoutException e) {
            KieSession s = session.get();
            if (s != null) s.halt();
            worker.interrupt();
            out.addAll(sink.findings());
            Rule r = current.get();
            out.add(Finding.of("TOOL001", r != null ? Span.at(fileOf.apply(r), 1, 1) : where, "rules#budget",
                    "the " + what + " ran longer than " + budget.toSeconds() + " s and were stopped"
                            + (r != null ? " inside user rule '" + r.getName() + "' (" + fileOf.apply(r) + ")" : "")
                            + ": a rule loops; the built-in rules' findings are reported"));
        } catch (ExecutionException e) {
            Throwable t = e.getCause();
            out.addAll(sink.findings());
            Rule r = current.get();
            out.add(Finding.of("TOOL001", r != null ? Span.at(fileOf.apply(r), 1, 1) : where, "rules#failed",
                    (r != null ? "user rule '" + r.getName() + "' (" + fileOf.apply(r) + ")" : "the " + what)
                            + " failed: " + describe(t) + "; its findings are missing, the built-in rules' are reported"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            worker.interrupt();
        }
        return out;
    }

    private static String describe(Throwable t) {
        // Drools wraps what a consequence throws: name the cause
        while (t.getCause() != null && t.getCause() != t && t.getClass().getName().startsWith("org.kie")) t = t.getCause();
        if (t instanceof StackOverflowError) return "StackOverflowError (unbounded recursion)";
        if (t instanceof OutOfMemoryError) return "OutOfMemoryError";
        String m = t.getMessage();
        String first = m == null ? "" : m.lines().findFirst().orElse("").trim();
        if (first.length() > 200) first = first.substring(0, 200) + "...";
        return t.getClass().getSimpleName() + (first.isEmpty() ? "" : ": " + first);
    }
}
