package dev.gpulint.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The registry of readers: which reader a file gets, which files are gpulint's, failures as SYN001. */
class ReadersTest {

    @Test
    void theExtensionsLiveInOnePlace() {
        for (String n : List.of("a.topo", "b.yaml", "c.YML", "d.json", "e.csv", "f.sh", "g.bash", "h.sbatch", "i.SLURM", "j.toml")) {
            assertTrue(Readers.isCandidate(n), n);
        }
        for (String n : List.of("f.txt", "g.py", "yaml", "h.yaml.bak", "train")) assertFalse(Readers.isCandidate(n), n);
        assertEquals("DSL", Readers.named("x.topo").orElseThrow().name());
        assertEquals("YAML", Readers.named("x.Yaml").orElseThrow().name());
        assertEquals("shell", Readers.named("run.sbatch").orElseThrow().name());
        // Slurm scripts as sites name them (.slrm at NERSC and Meta's examples, .sb at TACC/SDSC)
        assertEquals("shell", Readers.named("jobs/train.slrm").orElseThrow().name());
        assertEquals("shell", Readers.named("jobs/train.sb").orElseThrow().name());
        assertTrue(Readers.isCandidate("train.slrm") && Readers.isCandidate("train.SB"), "the folder walk reads them");
        assertEquals(List.of("DSL", "YAML", "JSON", "CSV", "shell", "TOML"), Readers.SYNTAXES.stream().map(Readers.Syntax::name).toList());
        assertEquals(List.of("**/*.topo", "**/*.yaml", "**/*.yml", "**/*.json", "**/*.csv", "**/*.sh", "**/*.bash", "**/*.sbatch",
                "**/*.slurm", "**/*.slrm", "**/*.sb", "**/*.toml"), Readers.includeGlobs());
        assertEquals("\\.(topo|yaml|yml|json|csv|sh|bash|sbatch|slurm|slrm|sb|toml)$", Readers.preCommitPattern());
    }

    @Test
    void aCsvFileIsOursOnlyWhenItListsDcgmFields() {
        ReadResult other = Readers.read(SourceFile.of("sales.csv", "a,b\n1,2\n"));
        assertFalse(other.manifest());
        assertTrue(other.foreign().isEmpty() && other.problems().isEmpty());
        ReadResult dcgm = Readers.read(SourceFile.of("c.csv", "DCGM_FI_DEV_GPU_UTIL, gauge, GPU utilization\n"));
        assertEquals(1, dcgm.foreign().size());
    }

    @Test
    void brokenJsonIsReportedOnlyWhenItLooksLikeDeepSpeed() {
        assertTrue(Readers.read(SourceFile.of("package.json", "{\"name\": ")).problems().isEmpty());
        ReadResult ds = Readers.read(SourceFile.of("ds.json", "{\"train_batch_size\": 8,"));
        assertEquals("SYN001", ds.problems().get(0).ruleId());
    }

    @Test
    void tooDeepANestingIsOneSyn001AndNamesWithoutAnExtensionAreReadAsYaml() {
        ReadResult deep = Readers.read(SourceFile.of("deep.yaml", "a: " + "[".repeat(300) + "]".repeat(300) + "\n"));
        assertEquals(1, deep.problems().size());
        assertTrue(deep.problems().get(0).message().startsWith("nesting deeper than 256 levels"), deep.problems().toString());
        ReadResult given = Readers.read(SourceFile.of("Jobfile", "kind: training_job\nname: j\n"));
        assertTrue(given.manifest());
        assertEquals(1, given.documents().size());
    }

    @Test
    void anExtensionOfNoFormatGpulintReadsIsANoteNotAYamlError() {
        ReadResult sh = Readers.read(SourceFile.of("scripts/train.py", "import torch\nx: y: z\n"));
        assertEquals(List.of("SYN006 note gpulint does not read .py files (yet), so 'scripts/train.py' was skipped; it reads "
                + ".topo, .yaml, .yml, .json, .csv, .sh, .bash, .sbatch, .slurm, .slrm, .sb and .toml files."),
                sh.problems().stream().map(p -> p.ruleId() + " " + p.level().id() + " " + p.message()).toList());
        assertFalse(sh.failed(), "a note does not make the run exit 2");
        assertFalse(sh.manifest());
    }

    @Test
    void aShellScriptIsOneDocumentOfItsWholeTextAndAShebangMakesAnExtensionlessFileOne() {
        String text = "#!/bin/bash\n#SBATCH --nodes=2\nsrun python train.py\n";
        ReadResult r = Readers.read(SourceFile.of("run.sbatch", text));
        assertTrue(r.problems().isEmpty() && !r.manifest());
        var root = r.foreign().get(0).root();
        assertEquals(Readers.SCRIPT_KEY, root.entries().get(0).key().text());
        var script = (dev.gpulint.tree.ScalarNode) root.entries().get(0).value();
        assertEquals(text, script.text());
        assertEquals("run.sbatch:1:1", script.span().toString());
        assertEquals(4, script.span().endLine());
        ReadResult given = Readers.read(SourceFile.of("launch", "#!/usr/bin/env bash\nnodes: [a\n"));
        assertTrue(given.problems().isEmpty(), "a shell script is not reported as broken YAML");
        assertEquals(Readers.SCRIPT_KEY, given.foreign().get(0).root().entries().get(0).key().text());
        for (String first : List.of("#!/bin/sh -e", "#!/usr/bin/env -S bash", "#!/bin/bash")) assertTrue(Readers.shebang(first + "\n"), first);
        for (String first : List.of("#!/usr/bin/python3", "# a comment", "#!/usr/bin/env python")) assertFalse(Readers.shebang(first + "\n"), first);
    }

    @Test
    void tomlIsReadOnlyWhenItIsATorchtitanConfigurationWithEachKeyAndValuePlaced() {
        assertTrue(Readers.read(SourceFile.of("pyproject.toml", "[project]\nname = \"x\"\n")).foreign().isEmpty());
        assertTrue(Readers.read(SourceFile.of("Cargo.toml", "[package\nname = 1")).problems().isEmpty(), "broken TOML that is not torchtitan's");
        ReadResult broken = Readers.read(SourceFile.of("t.toml", "[parallelism]\ntensor_parallel_degree = = 8\n"));
        assertEquals("SYN001", broken.problems().get(0).ruleId());
        assertEquals("t.toml:2:26", broken.problems().get(0).span().toString());
        ReadResult t = Readers.read(SourceFile.of("t.toml", "[parallelism]\n  tensor_parallel_degree = 8 # TP\nname = \"a\"\n"));
        var par = (dev.gpulint.tree.MappingNode) t.foreign().get(0).root().get("parallelism").orElseThrow();
        assertEquals("t.toml:1:2", t.foreign().get(0).root().entries().get(0).key().span().toString());
        var tp = par.entry("tensor_parallel_degree").orElseThrow();
        assertEquals(new dev.gpulint.core.Span("t.toml", 2, 3, 2, 25), tp.key().span());
        assertEquals(new dev.gpulint.core.Span("t.toml", 2, 28, 2, 29), tp.value().span());
        assertEquals("8", ((dev.gpulint.tree.ScalarNode) tp.value()).text());
        assertEquals(new dev.gpulint.core.Span("t.toml", 3, 8, 3, 11), par.entry("name").orElseThrow().value().span());
    }
}
