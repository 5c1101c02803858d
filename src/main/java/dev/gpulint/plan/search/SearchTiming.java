package dev.gpulint.plan.search;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.read.SourceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The benchmark's entry point for the candidate search (bench/bench.py scenario "plan"), until `gpulint plan` calls
 * it: reads manifests (any format gpulint reads: native YAML, Megatron-LM, NeMo, ...), searches the layouts of their first job with a stand-in score (fewer GPUs per model
 * replica first) and prints what it found and how long each phase took. Not a user command: it exits 2 on any
 * problem with a one-line reason. Run: {@code java -cp gpulint-all.jar dev.gpulint.plan.search.SearchTiming FILE...}.
 */
public final class SearchTiming {
    private SearchTiming() {}

    public static void main(String[] args) throws IOException {
        long t0 = System.nanoTime();
        List<dev.gpulint.tree.Document> docs = new ArrayList<>();
        List<dev.gpulint.bind.adapt.Adapters.Input> foreign = new ArrayList<>();
        for (String a : args) {
            SourceFile f = SourceFile.of(a, Files.readString(Path.of(a), StandardCharsets.UTF_8));
            dev.gpulint.read.ReadResult r = dev.gpulint.read.Readers.read(f);
            docs.addAll(r.documents());
            if (!r.foreign().isEmpty()) foreign.add(new dev.gpulint.bind.adapt.Adapters.Input(f, r.foreign()));
        }
        Binder.Bound b = new Binder().bind(docs);
        List<dev.gpulint.spec.Specs.Job> jobs = new ArrayList<>(b.jobs());
        jobs.addAll(dev.gpulint.bind.adapt.Adapters.bind(foreign).jobs());
        if (jobs.isEmpty()) { System.err.println("no training job in " + List.of(args)); System.exit(2); }
        Catalog catalog = Catalog.builtIn();
        Resolved.Job r = JobLayouts.resolve(jobs.get(0), b.clusters(), catalog);
        Optional<Layout> current = JobLayouts.current(r);
        Optional<SearchSpace> space = JobLayouts.space(r, r.totalGpus());
        if (current.isEmpty() || space.isEmpty()) { System.err.println("the job's layout or GPU count is not known"); System.exit(2); }
        long t1 = System.nanoTime();
        SearchResult s = new CandidateSearch(catalog, RuleCatalog.builtIn()).search(jobs.get(0), b.clusters(), current.get(),
                space.get(), l -> new CandidateSearch.Score(1.0 / ((long) l.tp() * l.pp() * l.cp()), l.microBatchSize()));
        long t2 = System.nanoTime();
        System.out.println(jobs.get(0).name().value() + ": " + current.get().sizes() + (s.current().valid()
                ? ", valid, rank " + s.current().rank() + " of " + s.candidates().size() : ", rejected by " + s.current().rejectedBy()));
        System.out.printf(java.util.Locale.ROOT, "%d layouts, %d checks, %d valid, rejected %s, cluster findings %s; read %.0f ms, search %.0f ms%n",
                s.evaluated(), s.checks(), s.candidates().size(), s.rejected(), s.clusterFindings(), (t1 - t0) / 1e6, (t2 - t1) / 1e6);
    }
}
