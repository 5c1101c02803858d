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
        for (String n : List.of("a.topo", "b.yaml", "c.YML", "d.json", "e.csv")) assertTrue(Readers.isCandidate(n), n);
        for (String n : List.of("f.txt", "g.toml", "yaml", "h.yaml.bak")) assertFalse(Readers.isCandidate(n), n);
        assertEquals("DSL", Readers.named("x.topo").orElseThrow().name());
        assertEquals("YAML", Readers.named("x.Yaml").orElseThrow().name());
        assertEquals(List.of("DSL", "YAML", "JSON", "CSV"), Readers.SYNTAXES.stream().map(Readers.Syntax::name).toList());
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
        ReadResult sh = Readers.read(SourceFile.of("scripts/train.sh", "#!/bin/bash\ntorchrun --nnodes=2 train.py: x: y\n"));
        assertEquals(List.of("SYN006 note gpulint does not read .sh files (yet), so 'scripts/train.sh' was skipped; it reads "
                + ".topo, .yaml, .yml, .json and .csv files."),
                sh.problems().stream().map(p -> p.ruleId() + " " + p.level().id() + " " + p.message()).toList());
        assertFalse(sh.failed(), "a note does not make the run exit 2");
        assertFalse(sh.manifest());
    }
}
