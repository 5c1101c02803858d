package dev.gpulint.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Megatron-Core's --pipeline-model-parallel-layout read as its parse_str_to_list reads it and checked as
 * PipelineParallelLayerLayout checks it (the examples are the ones of Megatron-Core's docs and docstring).
 */
class PipelineLayoutTest {

    private static PipelineLayout.Problem bad(String text) {
        return assertThrows(PipelineLayout.Problem.class, () -> PipelineLayout.parse(text));
    }

    @Test
    void deepSeekV3OnPp16Vpp2() {
        PipelineLayout l = PipelineLayout.parse("Et*3|(tt|)*29,m|L");
        assertEquals(32, l.stages().size());
        assertEquals(61, l.decoderLayers());
        List<Long> expected = new ArrayList<>(List.of(3L));
        for (int i = 0; i < 29; i++) expected.add(2L);
        expected.add(1L);                       // the MTP layer: one transformer block
        expected.add(0L);                       // the loss alone
        assertEquals(expected, l.blocks());
        assertEquals(new PipelineLayout.Stage(3, 0, 1, 0), l.stages().get(0));
        assertEquals(new PipelineLayout.Stage(0, 1, 0, 0), l.stages().get(30));
        assertEquals(new PipelineLayout.Stage(0, 0, 0, 1), l.stages().get(31));
        assertNull(l.problem(16, 61));
        assertNull(l.problem(8, 0), "32 stages on pp 8: vpp 4; no layer count to check");
    }

    @Test
    void theDocstringsExampleAndGroupsThatHoldRepeats() {
        assertEquals(PipelineLayout.parse("Et*3|(tt|)*29,m|L").stages(), PipelineLayout.parse("Ettt|(tt|)*29m|L").stages(),
                "commas are for the eye; 'm' after the group's last '|' opens the next stage");
        PipelineLayout l = PipelineLayout.parse("\"E|(t*4|)*2,L\"");
        assertEquals(List.of(0L, 4L, 4L, 0L), l.blocks());
        assertNull(l.problem(4, 8));
        assertEquals(List.of(2L, 2L), PipelineLayout.parse("Ett|ttL").blocks());
        assertEquals(List.of(0L, 0L, 3L, 0L), PipelineLayout.parse("E|*2ttt|L").blocks(), "'|*2' repeats the separator");
    }

    @Test
    void textThatDoesNotReadNamesTheCharacter() {
        PipelineLayout.Problem p = bad("Et*3|(tt|)*29,x|L");
        assertEquals(14, p.index());
        assertEquals("'x' is not a layer letter; expected stages of E (embedding), t (transformer layer), m (MTP layer) and L (loss)"
                + " separated by '|', with x*n and (…)*n repeats, as \"Et*3|(tt|)*29,m|L\"", p.getMessage());
        assertEquals(5, bad("Et*3|(tt|,m|L").index());
        assertEquals("'(' opens a group that no ')' closes", bad("Et*3|(tt|,m|L").getMessage());
        assertEquals("a group must be followed by *n, the times it repeats", bad("E|(tt|)m|L").getMessage());
        assertEquals("a group inside a group is not read (Megatron unrolls one level of parentheses)", bad("E|((t)*2|)*3L").getMessage());
        assertEquals(3, bad("E|((t)*2|)*3L").index());
        assertEquals("'*' must be followed by a whole number, the times to repeat", bad("Et*|L").getMessage());
        assertEquals(4, bad("Et*2*3|L").index(), "a repeat of a repeat leaves a '*' Megatron does not read");
        assertEquals(3, bad(" 'E t|L' ").index(), "quotes and blanks around are dropped; the blank inside is not a letter");
        assertEquals("the layout is empty; " + PipelineLayout.EXPECTED, bad("  ").getMessage());
    }

    @Test
    void aLayoutIsBoundedBeforeItIsBuilt() {
        assertEquals("the layout unrolls to more than 100000 letters; at most that many are read", bad("E|(t*999999|)*999999L").getMessage());
        assertEquals("the repeat '99999999999' is too large; a layout unrolls to at most 100000 letters", bad("Et*99999999999|L").getMessage());
        assertEquals("the layout is 10003 characters long; at most 10000 are read", bad("E" + "t".repeat(10_001) + "L").getMessage());
        assertEquals(99_998, PipelineLayout.parse("Et*99998L").decoderLayers());
    }

    @Test
    void aLayoutThatDoesNotFitTheJobIsRefusedAsMegatronCoreRefusesIt() {
        PipelineLayout v3 = PipelineLayout.parse("Et*3|(tt|)*29,m|L");
        assertEquals("it has 32 stages, not a multiple of the pipeline size 12 (Megatron-Core: \"pipeline_model_parallel_layout must be"
                + " divisible by pipeline_model_parallel_size\")", v3.problem(12, 61));
        assertEquals("it places 61 transformer layers (t) but the model has 60 (Megatron-Core asserts the layout's decoder layers"
                + " match num_layers)", v3.problem(16, 60));
        assertEquals("it names the embedding (E) 0 times and the loss (L) 1 time; Megatron-Core requires the embedding exactly once and"
                + " the loss at least once", PipelineLayout.parse("tt|ttL").problem(2, 4));
        assertEquals("Megatron-Core requires the embedding (E) to be its first layer and the loss (L) its last",
                PipelineLayout.parse("tE|tL").problem(2, 2));
        assertEquals("a decoder layer (t) follows an MTP layer (m); Megatron-Core requires decoder layers before MTP layers",
                PipelineLayout.parse("Etm|tL").problem(2, 2));
        // two MTP layers on two stages: Megatron-Core's main branch refuses it, Megatron-LM's mtp_split (pull request #5329) runs
        // it; the union is accepted, and the layout says which rule it needed
        PipelineLayout split = PipelineLayout.parse("Ett|m|mL");
        assertNull(split.problem(3, 2));
        assertNull(split.problem(3, 2, 2));
        assertTrue(split.mtpSplit());
        assertNull(PipelineLayout.parse("Ett|mm|L").problem(3, 2));
        assertFalse(PipelineLayout.parse("Ett|mm|L").mtpSplit());
        // the layout's m letters must be the job's MTP layers where it writes them (validate_layer_layout)
        assertEquals("it places 2 MTP layers (m) but the job has 1 (Megatron-Core's validate_layer_layout: \"Number of mtp layers in"
                + " layout must match mtp_num_layers\")", split.problem(3, 2, 1));
        assertEquals("it places 0 MTP layers (m) but the job has 1 (Megatron-Core's validate_layer_layout: \"Number of mtp layers in"
                + " layout must match mtp_num_layers\")", PipelineLayout.parse("Ett|t|L").problem(3, 3, 1));
        assertNull(PipelineLayout.parse("Ett|t|L").problem(3, 3, 0));
        // pp 2 × vpp 2 in Megatron's order (rank 0 chunk 0, rank 1 chunk 0, rank 0 chunk 1, rank 1 chunk 1): m in rank 1's
        // first chunk is refused (validate_layer_layout: MTP only in a rank's last virtual chunk); in rank 0's last chunk it runs
        assertEquals("it places the MTP layers (m) on stage 2 of 4, virtual chunk 0 of pipeline rank 1's 2; Megatron-Core builds MTP layers only"
                + " in a rank's last virtual chunk (validate_layer_layout: \"Currently we restrict that the MTP should be always in the last"
                + " virtual pipeline stage of that rank\")", PipelineLayout.parse("Ett|m||L").problem(2, 2));
        assertNull(PipelineLayout.parse("Ett|t|m|L").problem(2, 3));
    }

    @Test
    void severalLossSlotsAreReadAsTheSplitMtpLossWhenThereAreOnePlusDOfThem() {
        // the pull request's example, pp 8 × vpp 2: E, ten stages of one t, then m, m, m on ranks 3, 4, 5's last chunks and the
        // loss on two stages, two slots each: 4 = 1 + 3 MTP layers (NVIDIA/Megatron-LM pull request #5318)
        PipelineLayout pr = PipelineLayout.parse("E|(t|)*10m|m|m|LL|LL");
        assertEquals(16, pr.stages().size());
        assertEquals(10, pr.decoderLayers());
        assertEquals(3, pr.mtpLayers());
        assertEquals(4, pr.losses());
        assertNull(pr.problem(8, 10, 3));
        assertTrue(pr.lossSplit());
        assertTrue(pr.mtpSplit());
        // blocks per stage (decoder and MTP layers; E and L are none): 0, then ten 1s, then 1, 1, 1, 0, 0
        assertEquals(List.of(0L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 0L, 0L), pr.blocks());
        // two slots on one stage with one MTP layer: accepted (1 + 1), not a split
        PipelineLayout one = PipelineLayout.parse("Et|tm|LL");
        assertNull(one.problem(3, 2));
        assertFalse(one.lossSplit());
        // a count other than 1 + D is refused with the framework's assert
        assertEquals("it names the loss (L) 3 times; Megatron-Core reads several loss slots only as the split MTP loss, one slot per"
                + " hidden-state chunk, 1 + 1 MTP layer = 2 (validate_layer_layout, NVIDIA/Megatron-LM pull request #5318: \"When using"
                + " mtp_loss_split, the number of loss slots (3) must equal 1 + mtp_num_layers (2)\"); without it: \"Loss must be specified"
                + " exactly once\"", PipelineLayout.parse("Et|tm|LLL").problem(3, 2));
        assertEquals("it names the loss (L) 2 times; Megatron-Core reads several loss slots only as the split MTP loss, one slot per"
                + " hidden-state chunk, 1 + 0 MTP layers = 1 (validate_layer_layout, NVIDIA/Megatron-LM pull request #5318: \"When using"
                + " mtp_loss_split, the number of loss slots (2) must equal 1 + mtp_num_layers (1)\"); without it: \"Loss must be specified"
                + " exactly once\"", PipelineLayout.parse("Et|tL|L").problem(3, 2));
        // the loss still last
        assertEquals("Megatron-Core requires the embedding (E) to be its first layer and the loss (L) its last",
                PipelineLayout.parse("Et|tmL|Lt").problem(3, 2));
    }
}
