package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Repeated #SBATCH options: sbatch reads the directives in order as one argument list, and each option's setter replaces the
 * value before it (SchedMD/slurm src/sbatch/opt.c _opt_batch_script; src/common/slurm_opt.c arg_set_*): the last wins, for
 * every option the binder reads.
 */
class SlurmDirectivesTest {

    private static Specs.Job job(String directives) {
        SourceFile f = SourceFile.of("train.sbatch", "#!/bin/bash\n" + directives + "srun python train.py --tensor-model-parallel-size 2\n");
        List<Specs.Job> jobs = Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign()))).jobs();
        assertEquals(1, jobs.size(), directives);
        return jobs.get(0);
    }

    private static String at(Located<?> v) {
        return v == null ? null : v.value() + " at " + v.span().startLine() + ":" + v.span().startColumn();
    }

    @Test
    void theLastNodesWins() {
        assertEquals("4 at 4:17", at(job("#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --nodes=4\n").nodes()));
        assertEquals("4 at 3:11", at(job("#SBATCH -N 2 --gpus-per-node=8\n#SBATCH -N4\n").nodes()), "short forms, several on a line");
        assertNull(job("#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --nodes=$NODES\n").nodes(),
                "a later value sbatch reads as text replaces the number: unknown");
    }

    @Test
    void anOptionWithoutAValueLeavesTheNextWordToTheNextOption() {
        // --requeue, --exclusive and -H take no value (slurm_opt.c's option table): "-N 4" on the next line is still the nodes;
        // before, the option without a value took "-N" as its value and the 4 was dropped
        assertEquals("4 at 4:12", at(job("#SBATCH --nodes=2 --gpus-per-node=8\n#SBATCH --requeue\n#SBATCH -N 4\n").nodes()));
        assertEquals("4 at 4:12", at(job("#SBATCH --nodes=2 --gpus-per-node=8\n#SBATCH --exclusive\n#SBATCH -N 4\n").nodes()));
        assertEquals("4 at 2:43", at(job("#SBATCH --nodes=2 --gpus-per-node=8 -H -N 4\n").nodes()));
        // an option's value may be the first word of the next directive line: sbatch reads all the lines as one argument list
        assertEquals("4 at 3:9", at(job("#SBATCH --gpus-per-node=8 --nodes\n#SBATCH 4\n").nodes()));
    }

    @Test
    void optionsFromSbatchsTableAndPluginsLeaveTheNextOptionAlone() {
        // --stepmgr takes no value (slurm_opt.c at 002a9076, no_argument): before, it took "-N" as its value, the 4 was left over
        // (a false SYN012 error) and the nodes stayed 2
        assertEquals("4 at 4:12", at(job("#SBATCH --nodes=2 --gpus-per-node=8\n#SBATCH --stepmgr\n#SBATCH -N 4\n").nodes()));
        // a SPANK plugin's option (pyxis' --no-container-mount-home, no value) is not in sbatch's table: an option after it is read
        assertEquals("4 at 4:12", at(job("#SBATCH --nodes=2 --gpus-per-node=8\n#SBATCH --no-container-mount-home\n#SBATCH -N 4\n")
                .nodes()));
        // short options run together as getopt_long reads them: -H a flag, then -N, whose value is the next word
        assertEquals("4 at 2:31", at(job("#SBATCH --gpus-per-node=8 -HN 4\n").nodes()));
        assertEquals("4 at 2:30", at(job("#SBATCH --gpus-per-node=8 -HN4\n").nodes()));
    }

    @Test
    void theLastGpuRequestWins() {
        Specs.Job g = job("#SBATCH --nodes=2\n#SBATCH --gpus-per-node=4\n#SBATCH --gpus-per-node=8\n");
        assertEquals("8 at 4:25", at(g.gpusPerNode()));
        assertEquals("#SBATCH --gpus-per-node", g.origin().gpusPerNodeWhere());
        Specs.Job r = job("#SBATCH --nodes=2\n#SBATCH --gres=gpu:4\n#SBATCH --gres=gpu:h100:8\n");
        assertEquals("8 at 4:25", at(r.gpusPerNode()));
        assertEquals("#SBATCH --gres=gpu:h100:8", r.origin().gpusPerNodeWhere());
        Specs.Job none = job("#SBATCH --nodes=2\n#SBATCH --gres=gpu:8\n#SBATCH --gres=nvme:1\n");
        assertNull(none.gpusPerNode(), "a later --gres without a GPU replaces the GPU request");
        Specs.Job w = job("#SBATCH --nodes=2\n#SBATCH --gpus=8\n#SBATCH --gpus=16\n");
        assertTrue(w.origin().stated().stream().anyMatch(s -> s.quantity().equals("world") && s.value().equals("16")
                && s.where().equals("#SBATCH --gpus") && s.span().startLine() == 4), w.origin().stated().toString());
        assertEquals("8 at 4:16", at(w.gpusPerNode()), "--gpus ÷ --nodes of the last --gpus");
    }

    @Test
    void theLastTasksPerNodeWins() {
        Specs.Job j = job("#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --ntasks-per-node=1\n#SBATCH --ntasks-per-node=8\n");
        assertTrue(j.origin().stated().stream().anyMatch(s -> s.quantity().equals("per_node") && s.value().equals("8")
                && s.where().equals("#SBATCH --ntasks-per-node (one rank per task)") && s.span().startLine() == 5),
                j.origin().stated().toString());
        assertTrue(j.origin().stated().stream().noneMatch(s -> s.quantity().equals("per_node") && s.value().equals("1")),
                j.origin().stated().toString());
    }

    @Test
    void theLastExportAndJobNameWin() {
        Specs.Job j = job("#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --export=NCCL_IB_DISABLE=1\n"
                + "#SBATCH --export=ALL,NCCL_IB_DISABLE=0\n#SBATCH --job-name=first\n#SBATCH -J second\n");
        assertEquals("0 at 5:38", at(j.env().get("NCCL_IB_DISABLE")), "the steps inherit the last --export");
        assertEquals(7, j.name().span().startLine(), "the job's name is placed at the last --job-name / -J");
    }

    /**
     * --gpus-per-node and --gres are two fields, sent to slurmctld as one per-node list, --gpus-per-node's entry first
     * (slurm_opt_create_job_desc, SchedMD/slurm src/common/slurm_opt.c at 002a9076), whose records gres_job_state_validate
     * sets in turn (src/interfaces/gres.c at b1fd7528): --gres's count wins whatever the order; a typed and an untyped
     * request are refused, two types are two requests. Each row: directives, the GPUs per node bound (null: none), where.
     */
    private static final String[][] GRES_AND_GPUS_PER_NODE = {
        {"#SBATCH --gres=gpu:4\n#SBATCH --gpus-per-node=8\n", "4 at 3:20", "#SBATCH --gres=gpu:4"},
        {"#SBATCH --gpus-per-node=8\n#SBATCH --gres=gpu:4\n", "4 at 4:20", "#SBATCH --gres=gpu:4"},
        {"#SBATCH --gpus-per-node=8 --gres=gpu:4\n", "4 at 3:38", "#SBATCH --gres=gpu:4"},
        {"#SBATCH --gres=gpu:h100:4\n#SBATCH --gpus-per-node=h100:8\n", "4 at 3:25", "#SBATCH --gres=gpu:h100:4"},
        {"#SBATCH --gres=gpu:h100:4\n#SBATCH --gpus-per-node=8\n", null, null},
        {"#SBATCH --gres=gpu:4\n#SBATCH --gpus-per-node=a100:8\n", null, null},
        {"#SBATCH --gres=gpu:a100:4\n#SBATCH --gpus-per-node=h100:8\n", null, null},
        {"#SBATCH --gres=gpu:8\n#SBATCH --gres=nvme:1\n#SBATCH --gpus-per-node=4\n", "4 at 5:25", "#SBATCH --gpus-per-node"},
        {"#SBATCH --gres=gpu:h100\n", "1 at 3:16", "#SBATCH --gres=gpu:h100"},
    };

    @Test
    void gresCountReplacesGpusPerNodeWhateverTheOrder() {
        for (String[] row : GRES_AND_GPUS_PER_NODE) {
            Specs.Job j = job("#SBATCH --nodes=2\n" + row[0]);
            assertEquals(row[1], at(j.gpusPerNode()), row[0]);
            assertEquals(row[2], row[1] == null ? null : j.origin().gpusPerNodeWhere(), row[0]);
        }
    }

    /** sbatch's _get_argument on one directive line: the line after "#SBATCH", and the arguments it reads, '|' between them. */
    private static final String[][] ARGUMENTS = {
        {" --job-name=\"a b\" --nodes=2", "--job-name=a b|--nodes=2"},
        {" --export=\"ALL,X=1\"", "--export=ALL,X=1"},
        {" --export='ALL,X=\"1 2\"'", "--export=ALL,X=\"1 2\""},
        {" --nodes=2 # two nodes --gpus-per-node=8", "--nodes=2"},
        {" --nodes=2#two", "--nodes=2"},
        {" --job-name=a\\#b", "--job-name=a#b"},
        {" --job-name=\"a#b\"", "--job-name=a#b"},
        {" --job-name=a\\ b", "--job-name=a|b"},
        {" \"\" --nodes=2", ""},
        {"\t--nodes=2\r", "--nodes=2"},
        {" --job-name=\"open --nodes=2", "--job-name=open --nodes=2"},
    };

    @Test
    void directiveWordsAreCutAsSbatchsGetArgumentCutsThem() {
        for (String[] row : ARGUMENTS) {
            StringBuilder b = new StringBuilder();
            for (SlurmDirectives.Argument a : SlurmDirectives.arguments(row[0], 0, row[0].length())) {
                b.append(b.length() == 0 ? "" : "|").append(a.text());
            }
            assertEquals(row[1], b.toString(), row[0]);
        }
        assertTrue(SlurmDirectives.arguments(" --job-name=\"open", 0, 17).get(0).open(), "a quote left open");
    }

    @Test
    void quotedValuesAreBoundUnquotedAtTheirWrittenText() {
        Specs.Job j = job("#SBATCH --nodes=\"2\" --gpus-per-node='8'\n#SBATCH --job-name=\"llama pretrain\" # the run's name\n");
        assertEquals("2 at 2:17", at(j.nodes()), "placed at the value as written, quotes and all");
        assertEquals("8 at 2:37", at(j.gpusPerNode()));
        assertEquals(new dev.gpulint.core.Span("train.sbatch", 3, 20, 3, 36), j.name().span(),
                "the job's name is placed at its one argument, \"llama pretrain\", and not at the comment after it");
        Specs.Job e = job("#SBATCH --nodes=2 --gpus-per-node=8\n#SBATCH --export=\"ALL,NCCL_IB_DISABLE=0\"\n");
        assertEquals("0 at 3:18", at(e.env().get("NCCL_IB_DISABLE")), "the steps inherit the list without its quotes");
        Specs.Job open = job("#SBATCH --nodes=2 --gpus-per-node=8\n#SBATCH --job-name=\"open --nodes=4\n");
        assertEquals("2 at 2:17", at(open.nodes()), "a quote left open takes the rest of the line (sbatch refuses the script)");
        assertTrue(open.name().span().startLine() != 3, "a job name sbatch cannot read is not bound: " + open.name().span());
    }

    @Test
    void onlyADirectiveAtTheLinesStartIsRead() {
        Specs.Job j = job("#SBATCH --nodes=2\n  #SBATCH --nodes=4\n\t#SBATCH --gpus-per-node=4\n#SBATCH --gpus-per-node=8\n");
        assertEquals("2 at 2:17", at(j.nodes()), "an indented #SBATCH is a comment to sbatch");
        assertEquals("8 at 5:25", at(j.gpusPerNode()));
        Specs.Job after = job("#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\necho start\n#SBATCH --nodes=4\n");
        assertEquals("2 at 2:17", at(after.nodes()), "directives after the first command are not read");
    }
    /**
     * What sbatch refuses outright is said, not only left unread: a quote a directive line leaves open stops sbatch
     * (_get_argument's fatal "Unmatched"), and a typed and an untyped GPU request per node are refused by
     * gres_job_state_validate whichever comes first. Two types, or one type twice, are requests Slurm takes: nothing said.
     */
    @Test
    void whatSbatchRefusesIsSaidWhereItIsWritten() {
        SlurmDirectives open = SlurmDirectives.read(text("#SBATCH --nodes=2 --job-name='a b\n#SBATCH --gpus-per-node=8\n"));
        assertEquals(1, open.refused.size());
        assertEquals("#SBATCH unmatched '", open.refused.get(0).key());
        assertEquals("1:30-1:34", where(open.refused.get(0).span()), "from the quote to the line's end");
        SlurmDirectives lone = SlurmDirectives.read(text("#SBATCH --nodes=2 \"\n#SBATCH --gpus-per-node=8\n"));
        assertEquals("#SBATCH unmatched \"", lone.refused.get(0).key(), "a lone quote reads no argument, and is still fatal");
        assertEquals("1:19-1:20", where(lone.refused.get(0).span()));
        assertEquals("2", lone.nodes.text());
        assertEquals("8", open.gpusPerNode.text(), "the other lines are still read");
        for (String[] row : new String[][] {
            {"#SBATCH --gres=gpu:h100:4\n#SBATCH --gpus-per-node=8\n", "1:16-1:26"},
            {"#SBATCH --gpus-per-node=8\n#SBATCH --gres=gpu:h100:4\n", "2:16-2:26"},
            {"#SBATCH --gres=gpu:4\n#SBATCH --gpus-per-node=a100:8\n", "1:16-1:21"},
        }) {
            SlurmDirectives d = SlurmDirectives.read(text(row[0]));
            assertEquals(1, d.refused.size(), row[0]);
            assertEquals(row[1], where(d.refused.get(0).span()), row[0]);
            assertNull(d.gpusPerNode, row[0]);
        }
        for (String quiet : new String[] {"#SBATCH --gres=gpu:a100:4\n#SBATCH --gpus-per-node=h100:8\n",
                "#SBATCH --gres=gpu:h100:4\n#SBATCH --gpus-per-node=h100:8\n", "#SBATCH --job-name=it\\'s --comment=\"a # b\"\n"}) {
            assertEquals(List.of(), SlurmDirectives.read(text(quiet)).refused, quiet);
        }
    }

    private static Specs.Job script(String whole) {
        SourceFile f = SourceFile.of("train.sbatch", whole);
        List<Specs.Job> jobs = Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign()))).jobs();
        assertEquals(1, jobs.size(), whole);
        return jobs.get(0);
    }

    /**
     * A heterogeneous job: sbatch starts the next component at any directive line holding "hetjob" or "packjob"
     * (strcasestr on the line, _opt_batch_script), and the batch script and srun without --het-group run in component 0.
     * The later components' nodes and GPUs are not the job's: they used to replace component 0's (last wins).
     */
    @Test
    void onlyTheFirstComponentOfAHeterogeneousJobIsRead() {
        Specs.Job j = job("#SBATCH --nodes=2 --gpus-per-node=8\n#SBATCH hetjob\n#SBATCH --nodes=1 --gpus-per-node=1\n");
        assertEquals("2 at 2:17", at(j.nodes()));
        assertEquals("8 at 2:35", at(j.gpusPerNode()));
        Specs.Job p = job("#SBATCH --nodes=2 --gpus-per-node=8\n#SBATCH PackJob\n#SBATCH --nodes=1\n");
        assertEquals("2 at 2:17", at(p.nodes()), "the older word, in any case");
        SlurmDirectives named = SlurmDirectives.read(text("#SBATCH --nodes=2\n#SBATCH --job-name=hetjob-test --nodes=4\n"));
        assertEquals("2", named.nodes.text(), "the word inside a value splits the job all the same, and the line is component 1's");
        assertEquals(1, named.otherwise.size());
        assertEquals("2:1-2:41", where(named.otherwise.get(0).span()));
        assertEquals(List.of(), SlurmDirectives.read(text("#SBATCH --nodes=2 --job-name=het\n")).otherwise);
    }

    @Test
    void slurmSentinelIsReadAsSbatchReadsIt() {
        Specs.Job j = job("#SLURM --nodes=4\n#SBATCH --gpus-per-node=8\n");
        assertEquals("4 at 2:16", at(j.nodes()));
        assertEquals(1, SlurmDirectives.read(text("#SLURM --nodes=4\n#SLURM -N 2\n")).otherwise.size(), "said once");
    }

    /**
     * #PBS lines: sbatch translates them after the #SBATCH lines and over them (xlate_batch_script), unless --ignore-pbs or a
     * #BSUB line; their options end at the first argument that is not one, and ngpus= is no key sbatch translates.
     */
    @Test
    void pbsLinesAreTranslatedOverTheSbatchLines() {
        Specs.Job j = job("#SBATCH --nodes=2 --gpus-per-node=8\n#PBS -l select=4:ngpus=8\n");
        assertEquals("4 at 3:16", at(j.nodes()));
        assertEquals("8 at 2:35", at(j.gpusPerNode()), "ngpus= requests nothing");
        assertEquals("2 at 2:17", at(job("#SBATCH --nodes=2 --gpus-per-node=8 --ignore-pbs\n#PBS -l select=4\n").nodes()));
        assertEquals("2 at 2:17", at(job("#SBATCH --nodes=2 --gpus-per-node=8\n#BSUB -n 16\n#PBS -l select=4\n").nodes()));
        assertEquals("3 at 3:22", at(job("#SBATCH --nodes=2 --gpus-per-node=8\n#PBS -N run -l nodes=1+2:ppn=8\n").nodes()),
                "the parts' counts summed; -N's value is skipped");
        assertEquals("2 at 2:17", at(job("#SBATCH --nodes=2 --gpus-per-node=8\n#PBS run -l select=4\n").nodes()),
                "the options end at the first argument that is not one");
        SlurmDirectives g = SlurmDirectives.read(text("#SBATCH --nodes=2\n#PBS -lselect=2:mpiprocs=8:naccelerators=16\n"));
        assertEquals("16", g.gpus.text());
        assertEquals("8", g.gpusPerNode.text(), "--gpus ÷ --nodes");
        assertEquals(1, g.otherwise.size());
    }

    /**
     * _set_pbs_options: -j takes a value ("j:" in its option string; only the long --join's is optional), and sbatch exits on
     * an option it does not know, a word that is not an option ("Invalid argument") or an option missing its value.
     */
    @Test
    void pbsLinesSbatchRefuses() {
        assertEquals("4 at 4:16", at(job("#SBATCH --nodes=2 --gpus-per-node=8\n#PBS -j oe\n#PBS -l select=4\n").nodes()),
                "-j's value is the next word, and the options go on after it");
        assertEquals(List.of(), SlurmDirectives.read(text("#SBATCH --nodes=2\n#PBS -j oe -N run -hz\n#PBS -l select=4\n")).refused);
        for (String[] row : new String[][] {
            {"#SBATCH --nodes=2\n#PBS -P proj -l select=4\n", "2:6-2:8", "'-P' on a #PBS line", "an option it does not know (-P, getopt_long's '?': \"Unrecognized command line parameter\")"},
            {"#SBATCH --nodes=2\n#PBS run -l select=4\n", "2:6-2:9", "'run' on a #PBS line", "a word that is not an option (\"Invalid argument: run\")"},
            {"#SBATCH --nodes=2\n#PBS -N run\n#PBS -l\n", "3:6-3:8", "'-l' on a #PBS line", "an option left without its value (getopt_long's '?': \"Unrecognized command line parameter\")"},
        }) {
            SlurmDirectives d = SlurmDirectives.read(text(row[0]));
            assertEquals(1, d.refused.size(), row[0]);
            assertEquals(row[1], where(d.refused.get(0).span()), row[0]);
            assertTrue(d.refused.get(0).message().startsWith(row[2]), d.refused.get(0).message());
            assertTrue(d.refused.get(0).message().contains("exits on " + row[3] + ", so sbatch does not submit the job"), d.refused.get(0).message());
        }
    }

    /** Two GPU types per node (two settings, or two items of one --gres): no one count per node, said (SYN012). */
    @Test
    void twoGpuTypesLeaveTheCountUnknownAndSaySo() {
        for (String[] row : new String[][] {
            {"#SBATCH --gres=gpu:a100:4\n#SBATCH --gpus-per-node=h100:8\n", "1:16-1:26"},
            {"#SBATCH --gres=gpu:a100:4,gpu:h100:4\n", "1:27-1:37"},
        }) {
            SlurmDirectives d = SlurmDirectives.read(text(row[0]));
            assertNull(d.gpusPerNode, row[0]);
            assertEquals(1, d.otherwise.size(), row[0]);
            assertEquals(row[1], where(d.otherwise.get(0).span()), row[0]);
            assertEquals(List.of(), d.refused, row[0]);
        }
        SlurmDirectives same = SlurmDirectives.read(text("#SBATCH --gres=gpu:h100:4,gpu:h100:4\n"));
        assertEquals("4", same.gpusPerNode.text(), "one type twice is one type");
        assertEquals(List.of(), same.otherwise);
        assertEquals(List.of(), SlurmDirectives.read(text("#SBATCH --gres=gpu:a100:4,gpu:4\n")).otherwise,
                "a typed and an untyped item are not two types: Slurm refuses them (below)");
    }

    /**
     * One --gres as gres_job_state_validate reads it (src/interfaces/gres.c at b1fd7528): each item's count goes to the
     * record of its type, so one type twice keeps the last count, and a typed beside an untyped item is
     * ESLURM_INVALID_GRES_TYPE, whichever comes first (its own comment's example is "gpu:2,gpu:tesla:1").
     */
    @Test
    void oneGresIsReadAsSlurmReadsItsItems() {
        assertEquals("8", SlurmDirectives.read(text("#SBATCH --gres=gpu:h100:4,gpu:h100:8\n")).gpusPerNode.text());
        assertEquals("1", SlurmDirectives.read(text("#SBATCH --gres=gpu:8,gpu\n")).gpusPerNode.text(), "an item without a count is 1");
        for (String[] row : new String[][] {
            {"#SBATCH --gres=gpu:2,gpu:h100:2\n", "1:22-1:32"},
            {"#SBATCH --gres=gpu:h100:2,gpu:2\n", "1:27-1:32"},
            {"#SBATCH --gres=gpu:h100:2,nvme:1,gpu\n", "1:34-1:37"},
        }) {
            SlurmDirectives d = SlurmDirectives.read(text(row[0]));
            assertNull(d.gpusPerNode, row[0]);
            assertEquals(1, d.refused.size(), row[0]);
            assertEquals(row[1], where(d.refused.get(0).span()), row[0]);
            assertTrue(d.refused.get(0).message().contains("once of type h100 and once of no type"), d.refused.get(0).message());
            assertEquals(List.of(), d.otherwise, row[0]);
        }
    }

    /** A bare #SLURM, or #SBATCH with nothing after it: _opt_batch_script compares the line's first characters only. */
    @Test
    void aBareSentinelIsADirectiveLine() {
        SlurmDirectives bare = SlurmDirectives.read(text("#SLURM\n#SBATCH --nodes=2\n"));
        assertEquals(1, bare.otherwise.size());
        assertEquals("1:1-1:7", where(bare.otherwise.get(0).span()));
        assertEquals("2", bare.nodes.text());
        assertEquals(List.of(), SlurmDirectives.read(text("#SBATCH\n#SBATCH --nodes=2\n")).otherwise);
        assertEquals("4", SlurmDirectives.read(text("#SLURM--nodes=4\n")).nodes.text());
    }

    /**
     * #PBS -l as _parse_pbs_resource_list reads it (xlate.c at fd49acb8): nodes=N:ppn=P is N nodes and P × N tasks
     * (_parse_pbs_nodes_opts); accelerator=true appends gpu:1 to --gres, one untyped GPU per node, which replaces an untyped
     * count and is refused beside a typed one; a long option's value is the next word.
     */
    @Test
    void pbsPpnAcceleratorAndLongOptions() {
        SlurmDirectives d = SlurmDirectives.read(text("#SBATCH --nodes=1\n#PBS -l nodes=2:ppn=8\n"));
        assertEquals("2", d.nodes.text());
        assertEquals("16", d.tasks.text());
                assertEquals("4", SlurmDirectives.read(text("#PBS -l nodes=node01:ppn=4\n")).tasks.text(), "no count: one node's tasks");
        SlurmDirectives acc = SlurmDirectives.read(text("#SBATCH --nodes=2 --gres=gpu:8\n#PBS -l accelerator=True\n"));
        assertEquals("1", acc.gpusPerNode.text(), "gpu:8,gpu:1: the last count of the untyped record");
        assertEquals("2:9-2:25", where(acc.gpusPerNode.span()));
        assertEquals("1", SlurmDirectives.read(text("#PBS -l accelerator=true\n")).gpusPerNode.text());
        assertNull(SlurmDirectives.read(text("#PBS -l accelerator=false\n")).gpusPerNode);
        SlurmDirectives typed = SlurmDirectives.read(text("#SBATCH --gres=gpu:h100:8\n#PBS -l accelerator=true\n"));
        assertNull(typed.gpusPerNode);
        assertEquals(1, typed.refused.size(), "gpu:h100:8,gpu:1: typed and untyped");
        SlurmDirectives longs = SlurmDirectives.read(text("#PBS --job_name run --resource_list select=3 --res=mpiprocs=4\n"));
        assertEquals(List.of(), longs.refused);
        assertEquals("3", longs.nodes.text());
        assertEquals("4", longs.tasksPerNode.text(), "an unambiguous prefix of a long name is that option");
        for (String bad : new String[] {"#PBS --job select=3\n", "#PBS --hold=1\n", "#PBS --project=x\n", "#PBS -- -l select=3\n"}) {
            assertEquals(1, SlurmDirectives.read(text(bad)).refused.size(), bad);
        }
        assertEquals("5", SlurmDirectives.read(text("#PBS -l other=select=9,select=5\n")).nodes.text(), "other='s value is skipped to its ','");
    }

    /**
     * #BSUB lines: translated by _set_bsub_options before any #PBS line, which sbatch then skips; -n MIN,MAX is MAX tasks,
     * -x exclusive; LSF's -gpu and -R are options it does not know, and it exits.
     */
    @Test
    void bsubLinesAreTranslatedAndTheirUnknownOptionsRefused() {
        SlurmDirectives d = SlurmDirectives.read(text("#SBATCH --nodes=2\n#BSUB -n 8,16 -x\n#PBS -l select=4\n"));
        assertEquals("16", d.tasks.text());
        assertEquals("2", d.nodes.text(), "the #PBS line is not translated");
        assertTrue(d.exclusive);
        assertEquals(1, d.otherwise.size());
        assertEquals("2:1-2:17", where(d.otherwise.get(0).span()));
        assertEquals(List.of(), d.refused);
        for (String[] row : new String[][] {
            {"#BSUB -gpu \"num=8\"\n", "1:7-1:11", "(-g,"},
            {"#BSUB -R \"span[ptile=8]\"\n", "1:7-1:9", "(-R,"},
            {"#BSUB -J run extra\n", "1:14-1:19", "Invalid argument: extra"},
        }) {
            SlurmDirectives r = SlurmDirectives.read(text(row[0]));
            assertEquals(1, r.refused.size(), row[0]);
            assertEquals(row[1], where(r.refused.get(0).span()), row[0]);
            assertTrue(r.refused.get(0).message().contains(row[2]), r.refused.get(0).message());
        }
        assertEquals(List.of(), SlurmDirectives.read(text("#BSUB -cwd /scratch -o out.txt\n")).refused, "-cwd is -c at an odd place");
        assertEquals(List.of(), SlurmDirectives.read(text("#SBATCH --ignore-pbs\n#BSUB -R x\n")).otherwise);
    }

    /** srun's --gres is read as #SBATCH --gres is (one parser): the step's GPUs (not ranks), and the GPUs per node when nothing else says. */
    @Test
    void srunGresIsReadAsTheOtherSrunOptions() {
        Specs.Job alone = script("#!/bin/bash\n#SBATCH --nodes=2\nsrun --gres=gpu:h100:8 python train.py --tensor-model-parallel-size 8\n");
        assertEquals("8 at 3:22", at(alone.gpusPerNode()));
        assertEquals("srun --gres=gpu:h100:8", alone.origin().gpusPerNodeWhere());
        Specs.Job both = script("#!/bin/bash\n#SBATCH --nodes=2 --gpus-per-node=8\nsrun --gres gpu:4 python train.py --tensor-model-parallel-size 4\n");
        assertEquals("8 at 2:35", at(both.gpusPerNode()), "the allocation first");
        assertTrue(both.origin().stated().stream().anyMatch(s -> s.quantity().equals("step_gpus_per_node") && s.value().equals("4")
                && s.where().equals("srun --gres=gpu:4") && s.kind() == Specs.StatedKind.LAUNCHER), both.origin().stated().toString());
    }

    /** sbatch reads every argument of a directive line; so does gpulint, in time and memory linear in the line. */
    @Test
    @dev.gpulint.testing.CpuLimit(seconds = 60)
    void aDirectiveLineOfAMillionArgumentsIsReadToItsEnd() {
        StringBuilder b = new StringBuilder("#SBATCH");
        for (int i = 0; i < 1_000_000; i++) b.append(" --nodes=2");
        b.append(" --nodes=4 --gpus-per-node=8\n");
        SlurmDirectives d = SlurmDirectives.read(text(b.toString()));
        assertEquals("4", d.nodes.text(), "the last of a million and one, past the 256 read before");
        assertEquals("8", d.gpusPerNode.text());
    }

    /**
     * getopt_long takes a prefix of one long option as that option (--nod=2 is --nodes=2, --gpus-per-n 8 is --gpus-per-node 8,
     * --exclusi is --exclusive (--excl begins --exclude too)); a prefix of several (--gpus-per) is its "is ambiguous", on which sbatch exits: SYN012's error.
     */
    @Test
    void abbreviatedLongOptionsAreTheOptionTheyBeginAndAnAmbiguousOneIsRefused() {
        SlurmDirectives d = SlurmDirectives.read(text("#SBATCH --job-n=run\n#SBATCH --gpus-per-n 8\n#SBATCH --exclusi\n#SBATCH --ntasks-per-no=1\n"));
        assertEquals("run", d.jobName.text());
        assertEquals("1:17-1:20", where(d.jobName.span()), "the value where it is written, after the abbreviation's '='");
        assertEquals("8", d.gpusPerNode.text(), "--gpus-per-n takes the next word as --gpus-per-node does");
        assertEquals("2:22-2:23", where(d.gpusPerNode.span()));
        assertTrue(d.exclusive);
        assertEquals("1", d.tasksPerNode.text());
        assertEquals(List.of(), d.refused);
        assertEquals("--nodes", SlurmDirectives.longOption("--nodes"), "a whole name is itself");
        assertEquals("--gpus", SlurmDirectives.longOption("--gpus"), "a whole name is itself though it begins --gpus-per-node");
        assertEquals("--container-image", SlurmDirectives.longOption("--container-image"), "not sbatch's (a plugin's): as written");
        SlurmDirectives amb = SlurmDirectives.read(text("#SBATCH --nodes=2\n#SBATCH --gpus-per=8\n#SBATCH --gpus-per 4\n"));
        assertEquals(1, amb.refused.size(), "the first ambiguous option only: sbatch has exited");
        assertEquals("2:9-2:19", where(amb.refused.get(0).span()), "the option as written, without its =value");
        assertTrue(amb.refused.get(0).message().contains("(--gpus-per-node, --gpus-per-socket, --gpus-per-task)"), amb.refused.get(0).message());
        assertNull(amb.gpusPerNode, "no GPU count is read from an option sbatch refuses");
        SlurmDirectives nod = SlurmDirectives.read(text("#SBATCH --nod=4\n"));
        assertTrue(nod.refused.get(0).message().contains("(--nodefile, --nodelist, --nodes)"), "--nod begins three: " + nod.refused.get(0).message());
        assertNull(nod.nodes);
    }

    private static dev.gpulint.bind.adapt.shell.ScalarText text(String script) {
        int lines = (int) script.chars().filter(c -> c == '\n').count();
        dev.gpulint.tree.ScalarNode n = new dev.gpulint.tree.ScalarNode(script, false,
                new dev.gpulint.core.Span("train.sbatch", 1, 1, lines + 1, 1));
        return dev.gpulint.bind.adapt.shell.ScalarText.of(script, n);
    }

    private static String where(dev.gpulint.core.Span s) {
        return s.startLine() + ":" + s.startColumn() + "-" + s.endLine() + ":" + s.endColumn();
    }
}
