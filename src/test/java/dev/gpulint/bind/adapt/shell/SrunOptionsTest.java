package dev.gpulint.bind.adapt.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** srun's options end at its program as srun's own option table says (which options take a value, which take one only attached). */
class SrunOptionsTest {

    /** The words of the script's one command after "srun". */
    private static List<Shell.Word> words(String line) {
        List<Shell.Word> w = Shell.parse(ScalarText.detached("s", line), Map.of()).commands().get(0).words();
        return w.subList(1, w.size());
    }

    private static String program(String line) {
        List<Shell.Word> w = words(line);
        int p = SrunOptions.read(w, 0).program();
        return p < w.size() ? w.get(p).text() : "(none)";
    }

    /** Each row: srun's command line, the program srun runs ((none): none), why. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = " => ", textBlock = """
            srun --exclusive python x.py => python => --exclusive[=user|mcs|topo]: optional, attached only
            srun -l python x.py => python => -l/--label takes no value
            srun -K python x.py => python => -K/--kill-on-bad-exit[=0|1]: optional
            srun --kill-on-bad-exit python x.py => python => its value is optional: only an attached one
            srun --overlap --exact -u python x.py => python => --overlap: optional, attached only; --exact and -u/--unbuffered take none
            srun --pty bash => bash => --pty: optional, attached only
            srun --container-mount-home --no-container-remap-root python x.py => python => pyxis switches
            srun -- python x.py => python => -- ends srun's options
            """)
    void optionsWithoutAValueOrWithAnOptionalOneDoNotTakeTheProgram(String line, String program, String why) {
        assertEquals(program, program(line), why);
    }

    /** Each row: srun's command line, the program srun runs ((none): none), why. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = " => ", textBlock = """
            srun -l --container-image "nvcr.io/nvidia/pytorch:20.12-py3" --container-mounts "/a:/a" --output=logs/%x_%j.log sh -c "python pretrain_gpt.py" => python => the sh -c string is read as srun's own launch (ShellStrings): its python is the program
            srun -l --container-image img.sqsh --container-mounts /fsx,/opt/slurm/bin torchrun --nnodes 2 t.py => torchrun => pyxis's --container-image and --container-mounts take the next word
            srun --mpi=pmix --kill-on-bad-exit=1 /opt/nccl_tests/build/all_reduce_perf -b 16M => /opt/nccl_tests/build/all_reduce_perf => values attached with =
            srun --wait=60 --kill-on-bad-exit=1 --jobid $SLURM_JOB_ID torchrun --nnodes 2 t.py => torchrun => --jobid takes the next word
            srun --nodes=1 --ntasks=1 -w "$head_node" hostname --ip-address => hostname => -w/--nodelist takes the next word; --ip-address is the program's
            srun -N2 -t5 --mpi=pmix --ntasks-per-node=4 --environment=nccl-test all_reduce_perf -b 8 => all_reduce_perf => short options' values attached (-N2, -t5)
            srun --mpi pmix -c 8 python x.py => python => --mpi and -c take the next word
            srun --nodes => (none) => a required value that is not written: no program
            """)
    void optionsWithARequiredValueTakeTheNextWordOrTheRestOfTheirs(String line, String program, String why) {
        assertEquals(program, program(line), why);
    }

    @Test
    void valuesAttachedShortClustersAbbreviationsAndTheLastExport() {
        SrunOptions.Parsed p = SrunOptions.read(words("srun -lN2 --ntasks-per-n 8 -K1 --export=NONE --export=ALL,A=1 python x.py --export=B=2"), 0);
        assertEquals("2", p.last("nodes").text());
        assertEquals(9, p.last("nodes").span().startColumn(), "the value is placed at its own character in -lN2");
        assertEquals("8", p.last("ntasks-per-node").text(), "--ntasks-per-n: the one option it abbreviates");
        assertEquals("1", p.last("kill-on-bad-exit").text());
        assertEquals("ALL,A=1", p.last("export").text(), "getopt: the later --export replaces the earlier; the program's is not srun's");
        assertNull(SrunOptions.read(words("srun --exclusive python x.py --export=NONE"), 0).last("export"));
        SrunOptions.Parsed ambiguous = SrunOptions.read(words("srun --n 2 python x.py"), 0);
        assertEquals("n", ambiguous.options().get(0).name(), "an ambiguous abbreviation names no option (nodes, ntasks, network...)");
        assertEquals(1, ambiguous.program(), "an option gpulint cannot name takes no value written apart");
        assertEquals("--n", ambiguous.ambiguous().text(), "getopt_long's 'is ambiguous': the word srun exits on");
        assertNull(p.ambiguous(), "--ntasks-per-n begins one option only");
        SrunOptions.Parsed gpus = SrunOptions.read(words("srun --gpus-per=8 --ntasks-per 8 python x.py"), 0);
        assertEquals("--gpus-per", gpus.ambiguous().text(), "the first of two, without its =value");
        assertEquals("--gpus-per-node, --gpus-per-socket, --gpus-per-task", SrunOptions.possibilities("gpus-per"));
        assertNull(SrunOptions.read(words("srun --gpus=8 --nodes 2 python x.py"), 0).ambiguous(),
                "an option's whole name is that option even where it begins others (--gpus, --gpus-per-node)");
    }
}
