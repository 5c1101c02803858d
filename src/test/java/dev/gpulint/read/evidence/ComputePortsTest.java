package dev.gpulint.read.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which ports of a capture are the compute NICs, against a declaration and without one. */
class ComputePortsTest {

    private static Evidence.IbPort port(int i, String layer, double rate, boolean active) {
        Span s = Span.at("n.ibstat.txt", i + 1, 1);
        return new Evidence.IbPort("mlx5_" + i, 1, s, new Evidence.Word(active ? "Active" : "Down", s),
                new Evidence.Word(active ? "LinkUp" : "Polling", s), rate, s, new Evidence.Word(layer, s));
    }

    /** A DGX H100: mlx5_1, 2 Ethernet at 400, mlx5_7, 8 Ethernet at 200, the other 8 InfiniBand at 400. */
    private static List<Evidence.IbPort> dgx() {
        List<Evidence.IbPort> out = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            boolean storage = i == 1 || i == 2 || i == 7 || i == 8;
            out.add(port(i, storage ? "Ethernet" : "InfiniBand", i >= 7 && storage ? 200 : 400, true));
        }
        return out;
    }

    private static List<String> names(List<Evidence.IbPort> ports) {
        return ports.stream().map(Evidence.IbPort::adapter).toList();
    }

    @Test
    void againstEightDeclaredInfinibandNicsTheFourEthernetPortsAreOtherNetworks() {
        assertEquals(List.of("mlx5_1", "mlx5_2", "mlx5_7", "mlx5_8"), names(ComputePorts.others(dgx(), "InfiniBand", 400, 8)));
        assertEquals(List.of(), names(ComputePorts.others(dgx(), "InfiniBand", 400, 9)),
                "9 declared, 8 on the layer: a compute port may be among the Ethernet ones, so none is set apart");
        assertEquals(List.of(), names(ComputePorts.others(dgx(), "InfiniBand", 400, 0)), "no declared count: nothing set apart");
    }

    @Test
    void aSlowPortOnTheDeclaredLayerIsSetApartOnlyWhenEnoughRunAtTheDeclaredRate() {
        List<Evidence.IbPort> ports = dgx();
        ports.set(5, port(5, "InfiniBand", 200, true));
        assertEquals(List.of("mlx5_1", "mlx5_2", "mlx5_7", "mlx5_8"), names(ComputePorts.others(ports, "InfiniBand", 400, 8)),
                "7 at 400: the slow one is a compute port trained low (EVID006), not another network");
        ports.add(port(12, "InfiniBand", 400, true));
        assertEquals(List.of("mlx5_1", "mlx5_2", "mlx5_5", "mlx5_7", "mlx5_8"), names(ComputePorts.others(ports, "InfiniBand", 400, 8)),
                "8 others at 400: the slow one is an extra port");
    }

    @Test
    void withoutADeclarationTheMostNumerousKindOfActivePortsIsChosenWithItsDownPorts() {
        assertEquals(List.of("mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"),
                names(ComputePorts.choose(dgx())));
        List<Evidence.IbPort> down = dgx();
        down.set(0, port(0, "InfiniBand", 10, false));
        assertEquals(8, ComputePorts.choose(down).size(), "a compute port that is down is still one of the node's NICs");
        List<Evidence.IbPort> tie = List.of(port(0, "Ethernet", 400, true), port(1, "InfiniBand", 200, true));
        assertEquals(List.of("mlx5_1"), names(ComputePorts.choose(tie)), "a tie: InfiniBand first");
    }
}
