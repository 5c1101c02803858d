package dev.gpulint.bind.adapt.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

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

    @Test
    void optionsWithoutAValueOrWithAnOptionalOneDoNotTakeTheProgram() {
        assertEquals("python", program("srun --exclusive python x.py"), "--exclusive[=user|mcs|topo]: optional, attached only");
        assertEquals("python", program("srun -l python x.py"), "-l/--label takes no value");
        assertEquals("python", program("srun -K python x.py"), "-K/--kill-on-bad-exit[=0|1]: optional");
        assertEquals("python", program("srun --kill-on-bad-exit python x.py"));
        assertEquals("python", program("srun --overlap --exact -u python x.py"));
        assertEquals("bash", program("srun --pty bash"));
        assertEquals("python", program("srun --container-mount-home --no-container-remap-root python x.py"), "pyxis switches");
        assertEquals("python", program("srun -- python x.py"));
    }

    @Test
    void optionsWithARequiredValueTakeTheNextWordOrTheRestOfTheirs() {
        // the sh -c string is read as srun's own launch (ShellStrings): its python is the program
        assertEquals("python", program("srun -l --container-image \"nvcr.io/nvidia/pytorch:20.12-py3\" --container-mounts \"/a:/a\" "
                + "--output=logs/%x_%j.log sh -c \"python pretrain_gpt.py\""));
        assertEquals("torchrun", program("srun -l --container-image img.sqsh --container-mounts /fsx,/opt/slurm/bin torchrun --nnodes 2 t.py"));
        assertEquals("/opt/nccl_tests/build/all_reduce_perf", program("srun --mpi=pmix --kill-on-bad-exit=1 /opt/nccl_tests/build/all_reduce_perf -b 16M"));
        assertEquals("torchrun", program("srun --wait=60 --kill-on-bad-exit=1 --jobid $SLURM_JOB_ID torchrun --nnodes 2 t.py"));
        assertEquals("hostname", program("srun --nodes=1 --ntasks=1 -w \"$head_node\" hostname --ip-address"));
        assertEquals("all_reduce_perf", program("srun -N2 -t5 --mpi=pmix --ntasks-per-node=4 --environment=nccl-test all_reduce_perf -b 8"));
        assertEquals("python", program("srun --mpi pmix -c 8 python x.py"));
        assertEquals("(none)", program("srun --nodes"), "a required value that is not written: no program");
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
    }
}
