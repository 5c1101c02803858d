package dev.gpulint.settle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Fold;
import dev.gpulint.core.Span;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.tree.GroupFolder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Findings about a folded node group come out once per member; other texts name its first member. */
class UnfolderTest {

    private static Fold fold() throws Exception {
        String text = "kind: cluster\nname: fleet\nnode_groups:\n"
                + "  - { name: a, speed: 400 Gb/s }\n  - { name: bb, speed: 400 Gb/s }\n  - { name: c, speed: 400 Gb/s }\n";
        try (AutoCloseable c = GroupFolder.foldFrom(1)) {
            return new YamlReader().read(SourceFile.of("f.yaml", text)).documents().get(0).folds().all().get(0);
        }
    }

    @Test
    void aFindingAboutTheFoldedGroupIsWrittenForEachMember() throws Exception {
        Fold f = fold();
        String t = f.token();
        Finding about = Finding.of("UNIT001", new Span("f.yaml", 4, 23, 4, 31), "cluster:fleet/node_groups[" + t + "]/speed",
                "speed of node group '" + t + "' is low").withRelated(new Span("f.yaml", 4, 13, 4, 14), "node group '" + t + "'")
                .withRelated(Span.at("f.yaml", 1, 1), "the cluster");
        List<Finding> out = new Unfolder(List.of(f)).unfold(List.of(about));
        assertEquals(3, out.size());
        assertEquals(List.of("cluster:fleet/node_groups[a]/speed", "cluster:fleet/node_groups[bb]/speed", "cluster:fleet/node_groups[c]/speed"),
                out.stream().map(Finding::identity).toList());
        assertEquals("speed of node group 'bb' is low.", out.get(1).message());
        assertEquals(new Span("f.yaml", 5, 24, 5, 32), out.get(1).span());
        assertEquals(new Span("f.yaml", 5, 13, 5, 15), out.get(1).related().get(0).span());
        assertEquals("node group 'bb'", out.get(1).related().get(0).message());
        assertEquals(Span.at("f.yaml", 1, 1), out.get(2).related().get(1).span());
        assertEquals(new Span("f.yaml", 6, 23, 6, 31), out.get(2).span());
    }

    @Test
    void otherTextsNameTheFirstMemberAndOtherFindingsStay() throws Exception {
        Fold f = fold();
        Finding job = Finding.of("SYN003", Span.at("j.yaml", 3, 1), "training_job:j/node_group", "job 'j' compares with '" + f.token() + "'");
        Finding plain = Finding.of("NET001", Span.at("f.yaml", 1, 1), "cluster:fleet", "no PFC");
        Finding stranger = Finding.of("NET001", Span.at("f.yaml", 1, 1), "cluster:fleet", "text with \uE000999\uE001 in it");
        List<Finding> out = new Unfolder(List.of(f)).unfold(List.of(job, plain, stranger));
        assertEquals(List.of("job 'j' compares with 'a'.", "no PFC.", "text with \uE000999\uE001 in it."), out.stream().map(Finding::message).toList());
        assertEquals(Span.at("j.yaml", 3, 1), out.get(0).span());
    }
}
