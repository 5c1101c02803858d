package dev.gpulint.derive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/** The analyses' tests' input: a YAML manifest read, bound and resolved with the built-in catalog. */
public record Fixture(Catalog catalog, List<Resolved.Cluster> clusters, List<Resolved.Job> jobs) {

    /** {@code yaml} (file t.yaml) resolved; it must bind without findings. */
    public static Fixture of(String yaml) {
        var read = new YamlReader().read(SourceFile.of("t.yaml", yaml));
        var bound = new Binder().bind(read.documents());
        assertEquals(List.of(), bound.findings(), "the test input binds cleanly");
        Catalog catalog = Catalog.builtIn();
        Resolver resolver = new Resolver(catalog);
        List<Resolved.Cluster> clusters = resolver.clusters(bound.clusters());
        List<Resolved.Job> jobs = bound.jobs().stream().map(resolver::job).toList();
        return new Fixture(catalog, clusters, jobs);
    }

    /** The facts of type {@code type} that {@code analysis} emits for the first job. */
    public <T> List<T> jobFacts(Class<T> type, BiConsumer<Resolved.Job, Facts> analysis) {
        Facts out = new Facts();
        analysis.accept(jobs.get(0), out);
        return only(type, out);
    }

    /** The facts of type {@code type} that {@code analysis} emits for every cluster. */
    public <T> List<T> clusterFacts(Class<T> type, BiConsumer<Resolved.Cluster, Facts> analysis) {
        Facts out = new Facts();
        for (Resolved.Cluster c : clusters) analysis.accept(c, out);
        return only(type, out);
    }

    private static <T> List<T> only(Class<T> type, Facts out) {
        List<T> list = new ArrayList<>();
        for (Object o : out.list()) if (type.isInstance(o)) list.add(type.cast(o));
        return list;
    }
}
