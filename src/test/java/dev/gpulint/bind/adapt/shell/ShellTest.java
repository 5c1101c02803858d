package dev.gpulint.bind.adapt.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.adapt.shell.Shell.Word;
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
        // 200,000 unclosed ${ finish (each is scanned a bounded way: a quadratic scan would not end in any CI run);
        // how fast is the benchmark's business, not a wall-clock assertion on a loaded machine
        assertFalse(parse("run " + "${".repeat(200_000), Map.of()).commands().get(0).words().get(1).known());
    }

    @Test
    void aDefaultIsUnknownWhenTheScriptAssignsTheVariableAValueItCannotKnow() {
        Shell.Script s = parse("""
                NNODES=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | wc -l)
                if [ -n "$1" ]; then NODES=$1; fi
                if [ -n "$2" ]; then GPUS=4; else GPUS=8; fi
                for dev in a b; do :; done
                read -r RANKS
                A=2
                run ${NNODES:-1} ${NODES:-1} ${GPUS:-2} ${dev:-x} ${RANKS:-3} ${A:-9} ${NEVER:-5}
                """, Map.of());
        List<Word> w = s.commands().get(s.commands().size() - 1).words();
        assertFalse(w.get(1).known(), "a command substitution's value is not known, and the default is not taken");
        assertFalse(w.get(2).known(), "assigned inside an if: maybe set");
        assertFalse(w.get(3).known(), "assigned in both branches: either");
        assertFalse(w.get(4).known(), "a loop variable");
        assertFalse(w.get(5).known(), "a read target");
        assertEquals("2", w.get(6).text(), "a plain assignment is known");
        assertEquals("5", w.get(7).text(), "a variable the script never sets takes its default");
        assertTrue(w.get(7).known());
        Shell.Script inside = parse("if true; then N=2; run $N; fi\nrun $N", Map.of());
        assertEquals("2", inside.commands().get(2).words().get(1).text(), "known inside its own block");
        assertFalse(inside.commands().get(4).words().get(1).known(), "unknown after it");
        Shell.Script cases = parse("case $1 in\n a) N=2 ;;\n b) run $N ;;\nesac", Map.of());
        assertFalse(cases.commands().get(cases.commands().size() - 2).words().get(1).known(), "case branches are not told apart");
    }

    @Test
    void afterASourcedFileEveryDefaultIsUnknown() {
        for (String src : List.of("source ./cluster_env.sh", ". ./cluster_env.sh")) {
            Shell.Script s = parse("run ${A:-1}\n" + src + "\nrun ${NUM_NODES:-1}", Map.of());
            assertEquals("1", s.commands().get(0).words().get(1).text(), "before it, the default");
            assertFalse(s.commands().get(2).words().get(1).known(), src + " may set NUM_NODES");
        }
    }

    @Test
    void anAssigningDefaultSetsTheVariable() {
        Shell.Script s = parse(": ${NNODES:=2}\nNNODES=${NNODES:-1}\n: ${B=3}\nrun $NNODES $B", Map.of());
        assertEquals(List.of("2", "3"), texts(s.commands().get(3).words().subList(1, 3)));
        assertEquals("2", s.variables().get("NNODES"));
    }

    @Test
    void theLaunchersVariablesKeepTheirDefaultsUnknown() {
        for (String name : List.of("PET_NNODES", "PBS_NUM_NODES", "LSB_DJOB_NUMPROC", "SM_NUM_GPUS", "VC_WORKER_NUM", "FLUX_JOB_SIZE",
                "TORCHELASTIC_RUN_ID", "MASTER_ADDR", "NODE_RANK", "LOCAL_RANK", "GROUP_RANK", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK")) {
            assertFalse(parse("run ${" + name + ":-1}", Map.of()).commands().get(0).words().get(1).known(), name);
        }
        assertEquals("1", parse("run ${MY_NODES:-1}", Map.of()).commands().get(0).words().get(1).text());
    }

    @Test
    void aHereDocumentsBodyIsTextNotCommands() {
        Shell.Script s = parse("cat <<USAGE\n  mlnx_qos -i eth0 --pfc 0,0,0,0,1,0,0,0\nUSAGE\nrun 1\ncat <<-'EOF' > x\n\tfoo\n\tEOF\nrun 2", Map.of());
        assertEquals(List.of("cat", "run 1", "cat > x", "run 2"),
                s.commands().stream().map(c -> String.join(" ", texts(c.words()))).toList());
        Shell.Script fed = parse("/bin/bash << 'EOF'\nmpirun -np 16 app\nEOF", Map.of());
        assertEquals(List.of("mpirun", "-np", "16", "app"), texts(fed.commands().get(1).words()),
                "a here-document fed to a shell is the script it runs");
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

    @Test
    void aHereDocumentKeepsItsBodyTheVariablesItNamesAndTheCommandThatWritesIt() {
        String script = "GB=64\nMB=4\ncat <<EOT > ds.json\n{ \"train_batch_size\": $GB }\nEOT\nGB=128\ncat <<'EOF' > raw.json\n$MB\nEOF\necho done\n";
        Shell.Script s = parse(script, Map.of());
        assertEquals(2, s.heredocs().size());
        Shell.Heredoc h = s.heredocs().get(0);
        assertEquals(List.of("cat", ">", "ds.json"), texts(h.words()));
        assertEquals("{ \"train_batch_size\": $GB }\n", script.substring(h.start(), h.end()), "the body ends before the delimiter line");
        assertTrue(h.expands());
        assertEquals(Map.of("GB", "64"), h.variables(), "the values where the cat stands, not GB=128 after it; MB is not named");
        assertFalse(s.heredocs().get(1).expands(), "a quoted delimiter expands nothing");
        assertEquals(List.of("echo", "done"), texts(s.commands().get(s.commands().size() - 1).words()), "the body is no command");
    }

    @Test
    void hereDocumentsAreBoundedInNumberAndInTheVariablesTheyKeep() {
        StringBuilder many = new StringBuilder("X=1\n");
        for (int i = 0; i < ShellTokens.MAX_HEREDOCS + 5; i++) many.append("cat <<EOT > f").append(i).append(".json\n$X\nEOT\n");
        assertEquals(ShellTokens.MAX_HEREDOCS, parse(many.toString(), Map.of()).heredocs().size());
        String big = "X=1\ncat <<EOT > big.json\n" + "$X ".repeat(ShellTokens.MAX_HEREDOC / 3 + 1) + "\nEOT\n";
        assertEquals(Map.of(), parse(big, Map.of()).heredocs().get(0).variables(), "a body past the bound expands nothing");
        String value = "v".repeat(60_000);
        StringBuilder wide = new StringBuilder();
        for (int i = 0; i < 6; i++) wide.append("V").append(i).append('=').append(value).append('\n');
        wide.append("cat <<EOT > w.json\n$V0 $V1 $V2 $V3 $V4 $V5\nEOT\n");
        assertEquals(4, parse(wide.toString(), Map.of()).heredocs().get(0).variables().size(),
                "values past " + ShellTokens.MAX_HEREDOC_VALUES + " characters are not kept");
    }
    @Test
    void aParenthesisGroupRunsInAChildShellAndOnlyWhereACommandStarts() {
        Shell.Script s = parse("""
                ( export A=0; ( B=1 ) ; echo $(date) )
                f() { echo; }
                case $X in a) export C=1 ;; (b) export C=2 ;; esac
                diff <(sort x) y && ( bash -c "export D=1; torchrun t.py" )
                torchrun t.py
                """, Map.of());
        List<String> shells = s.commands().stream().map(Shell.Command::shell).toList();
        // the group's commands, its nested group; f's definition, case and its branches, diff and sort in the script's
        // own shell; the -c string's two commands in a child of group 3; the launch
        List<String> own = java.util.Collections.nCopies(11, "");
        List<String> expected = new java.util.ArrayList<>(List.of("1", "1/2", "1"));
        expected.addAll(own);
        expected.addAll(List.of("3/4", "3/4", ""));
        assertEquals(expected, shells, s.commands().toString());
        assertFalse(s.commands().get(16).inside("1"));
        assertTrue(s.commands().get(15).inside("3"));
        assertTrue(s.commands().get(9).assignments().get(0).exported(), "case's branch exports in the script's shell");
    }

    @Test
    void declareDashXTypesetDashXAndSetDashAExport() {
        Shell.Script s = parse("""
                declare -x A=1
                typeset -rx B=2
                declare +x C=3
                local D=4
                set -ea
                E=5
                ( set +a; F=6 )
                G=7
                set +o allexport
                H=8
                """, Map.of());
        List<String> exported = s.assignments().stream().filter(Shell.Assignment::exported).map(Shell.Assignment::name).toList();
        assertEquals(List.of("A", "B", "E", "G"), exported, s.assignments().toString());
    }

    @Test
    void envsNameValueWordsAreTheProgramsOwnEnvironmentUpToTheProgram() {
        Shell.Script s = parse("env -u X -i A=1 --chdir /w B=2 torchrun t.py C=3\n", Map.of());
        List<Shell.Assignment> a = s.commands().get(0).assignments();
        assertEquals(List.of("A", "B"), a.stream().map(Shell.Assignment::name).toList());
        assertTrue(a.get(1).exported());
        assertEquals("2", a.get(1).value().text());
        assertEquals(1, a.get(1).nameSpan().startLine());
        assertEquals(28, a.get(1).nameSpan().startColumn());
        assertEquals(30, a.get(1).value().span().startColumn());
        assertEquals("env", s.commands().get(0).words().get(0).text(), "the words stay the command's");
    }

    @Test
    void envsSplitStringIsSplitIntoItsWordsInTheOptionsPlace() {
        // GNU env -S: 'A=1 B="x y" torchrun t.py' is the arguments A=1, B=x y, torchrun, t.py (coreutils env.c parse_split_string)
        Shell.Script s = parse("env -S 'A=1 B=\"x y\" torchrun t.py' C=3\n", Map.of());
        Shell.Command c = s.commands().get(0);
        assertEquals(List.of("A", "B"), c.assignments().stream().map(Shell.Assignment::name).toList(), c.toString());
        assertTrue(c.assignments().get(0).exported());
        assertEquals("1", c.assignments().get(0).value().text());
        assertEquals("x y", c.assignments().get(1).value().text());
        // a plain part is placed at its own characters inside the quotes: A at column 9, its value at 11
        assertEquals(9, c.assignments().get(0).nameSpan().startColumn());
        assertEquals(11, c.assignments().get(0).value().span().startColumn());
        assertEquals(List.of("env", "A=1", "B=x y", "torchrun", "t.py", "C=3"), c.words().stream().map(Shell.Word::text).toList());
        // -SSTRING, --split-string=STRING, -u inside the string, \_ separating, a comment after #
        Shell.Script t = parse("env --split-string='-u X D=4\\_torchrun #E=5' -SF=6\n", Map.of());
        assertEquals(List.of("env", "-u", "X", "D=4", "torchrun", "-SF=6"), t.commands().get(0).words().stream().map(Shell.Word::text).toList());
        assertEquals(List.of("D"), t.commands().get(0).assignments().stream().map(Shell.Assignment::name).toList());
        Shell.Script u = parse("env -SG=7 -S\"H=8 torchrun\"\n", Map.of());
        assertEquals(List.of("G", "H"), u.commands().get(0).assignments().stream().map(Shell.Assignment::name).toList());
    }

}
