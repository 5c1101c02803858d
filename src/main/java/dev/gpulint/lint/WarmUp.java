package dev.gpulint.lint;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.catalog.Models;
import dev.gpulint.engine.RuleEngine;
import dev.gpulint.meta.RuleCatalog;
import java.util.List;

/** Loads what every lint run needs while the main thread reads the input files. */
final class WarmUp {
    private WarmUp() {}

    /**
     * Starts building the rule base, the hardware catalog and the rule metadata on background
     * threads, so that they load while the main thread reads and parses the input files. Each is a
     * lazily initialised singleton: whoever needs one first waits for it. The rule metadata is every ID.yaml
     * ({@link RuleCatalog#all}: {@code RuleCatalog.builtIn()} alone loads none of it), which a lint run's set-up reads
     * for the configuration's rule names (ProjectRun.names) after the catalog is loaded and before the lint: on the
     * main thread it was ~160 ms of a cold hybrid {@code plan}'s serial start (bench/README.md, hybspeed8). Then the
     * model catalog ({@link Models}), which every bind reads next (ModelNames.fillAll), job names or not.
     */
    static void start() {
        for (Runnable r : List.<Runnable>of(RuleEngine::builtInKieBase,
                () -> { Catalog.builtIn(); RuleCatalog.builtIn().all(); Models.builtIn(); })) {
            Thread t = new Thread(() -> {
                try {
                    r.run();
                } catch (RuntimeException e) {
                    // the main thread meets the same error when it needs the object, and reports it
                }
            }, "gpulint-warm-up");
            t.setDaemon(true);
            t.start();
        }
    }
}
