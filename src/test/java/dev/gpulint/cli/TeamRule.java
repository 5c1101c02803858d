package dev.gpulint.cli;

import java.io.IOException;
import java.nio.file.Path;

/** A team rule for the CLI tests: TEAM001 warns about jobs on more than one node. */
final class TeamRule {
    private TeamRule() {}

    static void teamRule(Path folder) throws IOException {
        CliTest.write(folder, "TEAM001.drl", """
                package team;
                import dev.gpulint.facts.JobFact;
                global dev.gpulint.engine.FindingSink sink;
                rule "TEAM001" @id("TEAM001")
                when $j : JobFact( nodes > 1 )
                then sink.report("TEAM001", $j.getNodesSpan(), $j.identity(), "job '" + $j.getName() + "' asks for " + $j.getNodes() + " nodes");
                end
                """);
        CliTest.write(folder, "TEAM001.yaml", "id: TEAM001\nname: single-node-queue\nlevel: warning\ntitle: One node\n"
                + "description: One node only.\nremediation: ask for the multi-node queue\n");
    }
}
