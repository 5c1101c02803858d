package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Model;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A TOML whole number beyond a long (tomlj: "Integer is too large") is SYN002 at the value, quoting the digits written,
 * and the rest of the torchtitan file is still read (it was SYN001 for the whole file).
 */
class TomlWideNumberTest {

    private static Model bind(String text) {
        SourceFile f = SourceFile.of("llama3_8b.toml", text);
        return Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign())));
    }

    private static List<String> findings(Model m) {
        return m.findings().stream().filter(f -> f.ruleId().startsWith("SYN"))
                .map(f -> f.ruleId() + " " + f.span().startLine() + ":" + f.span().startColumn() + "-" + f.span().endColumn()
                        + " " + f.message()).toList();
    }

    @Test
    void aNumberBeyondALongIsSyn002AtTheValueAndTheRestIsRead() {
        Model m = bind("""
                [model]
                name = "llama3"
                flavor = "8B"

                [training]
                local_batch_size = 123456789012345678901  # twenty-one digits
                seq_len = 8192

                [parallelism]
                tensor_parallel_degree = 2
                """);
        assertEquals(List.of("SYN002 6:20-41 'local_batch_size' is 123456789012345678901; expected a whole number from 1 to 2147483647."),
                findings(m));
        assertEquals(2, m.jobs().get(0).parallelism().tp().value());
    }
}
