package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.adapt.Shell.Word;
import dev.gpulint.tree.ScalarNode;
import dev.gpulint.core.Span;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shell-lite scan: words, commands, variables, and where each word is written. */
class ShellTest {

    private static Shell.Script parse(String script, Map<String, String> known) {
        return Shell.parse(ScalarText.detached("s", script), known);
    }

    private static List<String> texts(List<Word> words) {
        return words.stream().map(Word::text).toList();
    }

    @Test
    void splitsWordsAndCommandsLikeSh() {
        Shell.Script s = parse("echo 'a b' \"c d\" e\\ f; ls -l && cat x | wc\n# a comment\nmpirun -np 4 \\\n  ./app", Map.of());
        assertEquals(5, s.commands().size());
        assertEquals(List.of("echo", "a b", "c d", "e f"), texts(s.commands().get(0).words()));
        assertEquals(List.of("mpirun", "-np", "4", "./app"), texts(s.commands().get(4).words()),
                "a backslash-newline continues the command; a comment line is no command");
    }

    @Test
    void aParameterDefaultIsTakenWhenTheScriptDoesNotSetTheVariable() {
        Shell.Script s = parse("""
                GPUS_PER_NODE=${GPUS_PER_NODE:-8}
                NNODES=${NNODES-2}
                TP=4
                EMPTY=
                run ${TP:-1} ${EMPTY:-3} ${EMPTY-5} ${A:-${B:-7}} ${SLURM_NNODES:-1} ${X:+y} ${Y:=9} "$(hostname)" ${U:-$V}
                """, Map.of());
        assertEquals("8", s.variables().get("GPUS_PER_NODE"), "unset in the script: the default");
        assertEquals("2", s.variables().get("NNODES"));
        List<Word> w = s.commands().get(4).words();
        assertEquals(List.of("4", "3", "", "7"), texts(w.subList(1, 5)),
                "a set variable wins; :- also replaces an empty one, - does not; defaults nest");
        assertTrue(w.subList(1, 5).stream().allMatch(Word::known));
        assertFalse(w.get(5).known(), "the launcher sets SLURM_NNODES: its fallback is not the job's size");
        assertFalse(w.get(6).known(), "${X:+y} is not a default");
        assertEquals("9", w.get(7).text());
        assertFalse(w.get(8).known(), "command substitution is unknown");
        assertFalse(w.get(9).known(), "a default that holds an unknown variable is unknown");
        Shell.Script known = parse("run ${SLURM_NNODES:-1}", Map.of("SLURM_NNODES", "4"));
        assertEquals("4", known.commands().get(0).words().get(1).text(), "known from the directives");
        String deep = "${A:-".repeat(10_000) + "1" + "}".repeat(10_000);
        assertFalse(parse("run " + deep, Map.of()).commands().get(0).words().get(1).known(), "deep nesting stays bounded");
        long t0 = System.nanoTime();
        assertFalse(parse("run " + "${".repeat(200_000), Map.of()).commands().get(0).words().get(1).known());
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "unclosed ${ are scanned a bounded way each: linear");
    }

    @Test
    void tracksAssignmentsAndExpandsKnownVariables() {
        Shell.Script s = parse("NODES=2\nexport GPUS=8\nNP=$(($NODES * ${GPUS}))\nrun -np $NP --x $UNSET '$NP'", Map.of());
        List<Word> w = s.commands().get(3).words();
        assertEquals("16", w.get(2).text());
        assertTrue(w.get(2).known());
        assertFalse(w.get(4).known(), "an unset variable leaves the word unknown");
        assertEquals("$NP", w.get(5).text(), "single quotes keep $ literal");
        assertTrue(s.assignments().stream().anyMatch(a -> a.name().equals("GPUS") && a.exported()));
        assertEquals("16", s.variables().get("NP"));
    }

    @Test
    void arithmeticNeedsEveryVariable() {
        assertEquals(16L, Shell.arithmetic("$A * (B + 2) - 2 / 1 - 0 % 3", Map.of("A", "2", "B", "7")) - 0);
        assertNull(Shell.arithmetic("$A * $B", Map.of("A", "2")));
        assertNull(Shell.arithmetic("1 / 0", Map.of()), "a division by zero is unknown, not a crash");
    }

    @Test
    void knownVariablesComeFromTheCaller() {
        Shell.Script s = parse("mpirun -np $((SKYPILOT_NUM_NODES*8)) app", Map.of("SKYPILOT_NUM_NODES", "2"));
        assertEquals("16", s.commands().get(0).words().get(2).text());
    }

    @Test
    void wordsKeepTheirPlaceInABlockScalar() {
        String source = "run: |\n  echo hi\n  mpirun -np 8 \\\n    ./app\n";
        // the block's value, as the YAML reader gives it, starts at the indicator
        ScalarNode node = new ScalarNode("echo hi\nmpirun -np 8 \\\n  ./app\n", false, new Span("f.yaml", 1, 6, 5, 1));
        Shell.Script s = Shell.parse(ScalarText.of(source, node), Map.of());
        Word eight = s.commands().get(1).words().get(2);
        assertEquals("8", eight.text());
        assertEquals(3, eight.span().startLine());
        assertEquals(14, eight.span().startColumn());
        Word app = s.commands().get(1).words().get(3);
        assertEquals(4, app.span().startLine());
        assertEquals(5, app.span().startColumn());
    }

    @Test
    void bashArraysOfFlagsExpandToTheirElementsWrittenWhereTheyAre() {
        String script = "TP=8\nARGS=(\n    --tensor-model-parallel-size $TP   # tp\n    \"--seq-length\" 4096\n)\n"
                + "ARGS+=( --pipeline-model-parallel-size 16 )\ntorchrun train.py \"${ARGS[@]}\" ${NONE[@]}\n";
        Shell.Script s = Shell.parse(ScalarText.detached("s", script), java.util.Map.of());
        var words = s.commands().get(s.commands().size() - 1).words();
        assertEquals(java.util.List.of("torchrun", "train.py", "--tensor-model-parallel-size", "8", "--seq-length", "4096",
                "--pipeline-model-parallel-size", "16", "${NONE[@]}"), words.stream().map(Shell.Word::text).toList());
        assertTrue(words.get(3).known());
        assertFalse(words.get(8).known(), "an array nobody set is unknown");
        // detached text is one line: the element keeps its own offset in the script
        assertEquals(script.indexOf("$TP") + 1, words.get(3).span().startColumn());
        assertEquals(script.indexOf(" 16 ") + 2, words.get(7).span().startColumn());
    }

    @Test
    void anUnquotedExpansionIsSplitIntoWordsAtItsUseAndAQuotedOneIsNot() {
        String script = "export GPT_ARGS=\"--tensor-model-parallel-size 2 \\\n   --pipeline-model-parallel-size 4\"\n"
                + "torchrun pretrain_gpt.py $GPT_ARGS \"$GPT_ARGS\"\n";
        Shell.Script s = Shell.parse(ScalarText.detached("s", script), Map.of());
        var words = s.commands().get(1).words();
        assertEquals(List.of("torchrun", "pretrain_gpt.py", "--tensor-model-parallel-size", "2", "--pipeline-model-parallel-size", "4",
                "--tensor-model-parallel-size 2    --pipeline-model-parallel-size 4"), words.stream().map(Word::text).toList());
        assertEquals(script.indexOf("$GPT_ARGS") + 1, words.get(3).span().startColumn(), "the split words are where the expansion is");
    }
}
