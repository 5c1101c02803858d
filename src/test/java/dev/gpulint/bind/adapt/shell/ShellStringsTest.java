package dev.gpulint.bind.adapt.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.adapt.shell.Shell.Command;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Strings a script runs as scripts ({@code bash -c}, {@code sh -c}, {@code eval}): read in the script's variables,
 * each word placed where the script writes it. A detached text is one line, so a column is the offset + 1.
 */
class ShellStringsTest {

    private static Shell.Script parse(String script) {
        return Shell.parse(ScalarText.detached("s", script), Map.of());
    }

    private static List<String> texts(List<Word> words) {
        return words.stream().map(Word::text).toList();
    }

    /** The last command that names {@code program}. */
    private static Command launch(Shell.Script s, String program) {
        Command found = null;
        for (Command c : s.commands()) for (Word w : c.words()) if (w.text().equals(program)) found = c;
        if (found == null) throw new AssertionError("no command runs " + program + ": " + s.commands());
        return found;
    }

    @Test
    void aLiteralBashDashCStringIsReadAsTheCommandSrunRunsEachWordAtItsOwnColumn() {
        String script = "srun -N 2 bash -c \"cd /w && torchrun --nproc_per_node 8 train.py --tensor-model-parallel-size 3\"";
        Shell.Script s = parse(script);
        Command c = launch(s, "torchrun");
        assertEquals(List.of("srun", "-N", "2", "torchrun", "--nproc_per_node", "8", "train.py", "--tensor-model-parallel-size", "3"),
                texts(c.words()), "srun's words prefix the launch; cd is set-up and stays a command of its own");
        assertEquals(List.of("cd", "/w"), texts(s.commands().get(0).words()));
        Word three = c.words().get(8);
        assertTrue(three.known());
        assertEquals(script.lastIndexOf('3') + 1, three.span().startColumn());
        assertEquals(script.lastIndexOf('3') + 2, three.span().endColumn());
    }

    @Test
    void aVariableOnlyPartlyKnownGivesItsKnownWordsPlacedInItsAssignment() {
        // the ml-engineering / BLOOM shape: an escaped \$SLURM_PROCID is for the shell srun starts, so LAUNCHER is
        // not known as a whole, yet its flags are
        String script = "GPUS_PER_NODE=8\n"
                + "LAUNCHER=\"python -u -m torch.distributed.run --nproc_per_node $GPUS_PER_NODE --node_rank \\$SLURM_PROCID\"\n"
                + "PROGRAM=\"pretrain_gpt.py --num-layers 30\"\n"
                + "export CMD=\"$LAUNCHER $PROGRAM\"\n"
                + "srun $SRUN_ARGS bash -c \"$CMD\" 2>&1 | tee log\n";
        Shell.Script s = parse(script);
        assertFalse(s.variables().containsKey("CMD"), "CMD holds an unknown part: it is no known variable");
        Command c = launch(s, "torch.distributed.run");
        assertEquals(List.of("srun", "$SRUN_ARGS", "python", "-u", "-m", "torch.distributed.run", "--nproc_per_node", "8",
                "--node_rank", "$SLURM_PROCID", "pretrain_gpt.py", "--num-layers", "30"), texts(c.words()));
        assertFalse(c.words().get(9).known(), "the rank srun's shell expands stays unknown");
        assertEquals(script.indexOf("=8") + 2, c.words().get(7).span().startColumn(), "the value where GPUS_PER_NODE is assigned");
        assertEquals(script.indexOf("--num-layers") + 1, c.words().get(11).span().startColumn(), "the flag where PROGRAM writes it");
        assertEquals(script.indexOf("30") + 1, c.words().get(12).span().startColumn());
    }

    @Test
    void shDashCOfAPartlyKnownCommandAndEvalOfOneAreRead() {
        String bloom = "DIR=`pwd`\noptions=\" --tensor-model-parallel-size 8 --pipeline-model-parallel-size 16\"\n"
                + "run_cmd=\"python -u ${DIR}/pretrain_gpt.py $@ ${options}\"\n"
                + "srun -l --output=$DIR/logs/x.log sh -c \"${run_cmd}\"\n";
        Command c = launch(parse(bloom), "python");
        assertEquals("srun", c.words().get(0).text());
        assertTrue(texts(c.words()).containsAll(List.of("--tensor-model-parallel-size", "8", "--pipeline-model-parallel-size", "16")));
        String eval = "full_cmd=\"torchrun --nproc_per_node 4 finetune.py --tensor-model-parallel-size 2\"\n"
                + "echo $full_cmd\neval \"$full_cmd\"\n";
        Command e = launch(parse(eval), "torchrun");
        assertEquals(List.of("torchrun", "--nproc_per_node", "4", "finetune.py", "--tensor-model-parallel-size", "2"), texts(e.words()));
        assertEquals(eval.indexOf(" 4 ") + 2, e.words().get(2).span().startColumn());
        Command lc = launch(parse("X=3\nbash -lc 'torchrun --nnodes $X t.py'"), "torchrun");
        assertEquals(List.of("torchrun", "--nnodes", "3", "t.py"), texts(lc.words()), "-lc, single quotes: the inner shell expands X");
    }

    @Test
    void echoOfAShellLineRunsNothingAndAStringWithoutAShellIsAWord() {
        Shell.Script s = parse("echo bash -c \"torchrun --nnodes 2 t.py\"\nprintf '%s' \"bash -c x\"\n");
        assertEquals(2, s.commands().size());
        assertEquals(List.of("echo", "bash", "-c", "torchrun --nnodes 2 t.py"), texts(s.commands().get(0).words()));
    }

    @Test
    void stringsInsideStringsAreReadToTheirBoundAndADeeperOneStaysAWord() {
        // depth 1..MAX_DEPTH are read; the one inside stays the word it is
        String inner = "torchrun --nnodes 2 t.py";
        String script = inner;
        for (int d = 0; d < ShellStrings.MAX_DEPTH; d++) script = "bash -c " + quote(script);
        assertEquals(List.of("torchrun", "--nnodes", "2", "t.py"), texts(launch(parse(script), "torchrun").words()));
        String deeper = "bash -c " + quote(script);
        Shell.Script s = parse(deeper);
        assertEquals(1, s.commands().size());
        assertEquals(List.of("bash", "-c", inner), texts(s.commands().get(0).words()),
                "past " + ShellStrings.MAX_DEPTH + " strings deep the string is a word, not read");
    }

    /** A single-quoted shell word holding {@code s} (each ' written as '\''). */
    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    @Test
    void manyLongStringsRunAsScriptsStayWithinTheExpansionBudget() {
        // each line runs a 60,000-character string: read whole, 1,000 of them would be 60 MB of text to tokenize;
        // the script's expansion budget (8 MiB) stops the reading, and the rest stay unread words
        StringBuilder script = new StringBuilder("CMD=\"torchrun" + " --x 1".repeat(10_000) + "\"\n");
        for (int i = 0; i < 1_000; i++) script.append("srun bash -c \"$CMD\"\n");
        Shell.Script s = parse(script.toString());
        List<Command> cs = s.commands();
        assertEquals("torchrun", cs.get(1).words().get(1).text(), "the first strings are read");
        Command last = cs.get(cs.size() - 1);
        assertEquals(List.of("srun", "bash", "-c"), texts(last.words()).subList(0, 3), "past the budget the string is a word");
        assertFalse(last.words().get(3).known());
        assertTrue(cs.size() < 1_200, "no line is read more than once");
    }

    @Test
    void aHereStringIsNoHereDocumentSoTheLinesAfterItAreStillCommands() {
        // alignment-handbook's launch.slurm shape: the <<< once read as << "$OPTIONAL_ARGS", a here-document that never
        // ended, and the script's launch was lost with the rest of the file
        Shell.Script s = parse("IFS=' ' read -ra ARGS <<< \"$OPTIONAL_ARGS\"\nfor arg in \"${ARGS[@]}\"; do :; done\n"
                + "srun bash -c \"accelerate launch --num_processes 8 t.py\"\n");
        assertEquals(List.of("srun", "accelerate", "launch", "--num_processes", "8", "t.py"), texts(launch(s, "accelerate").words()));
    }
}
