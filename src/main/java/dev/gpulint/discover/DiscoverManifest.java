package dev.gpulint.discover;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.read.evidence.Evidence;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** {@code gpulint discover}'s entry point: the manifest text from the evidence read. */
public final class DiscoverManifest {
    private DiscoverManifest() {}

    /**
     * @param files the captures the evidence was read from, as the comments name them
     * @param notes receives what the captures did not settle (also written as comments)
     */
    public static String write(Catalog catalog, List<Evidence> evidence, List<String> files, String name, String group, boolean topo,
                               Consumer<String> notes) {
        Discover d = new Discover(catalog, evidence);
        Manifest.Block cluster = d.cluster(name, group);
        List<String> header = new ArrayList<>();
        header.add("Written by gpulint discover from " + String.join(", ", files) + ".");
        header.add("Each value's comment names the capture line it comes from. A \"<fill in: ...>\" value is one the");
        header.add("captures cannot tell: gpulint check reports it (SYN008) until you write it.");
        for (String n : d.notes()) {
            header.add("Note: " + n);
            notes.accept("gpulint: " + n);
        }
        return topo ? Manifest.topo(header, cluster) : Manifest.yaml(header, cluster);
    }
}
