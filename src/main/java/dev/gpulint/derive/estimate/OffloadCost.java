package dev.gpulint.derive.estimate;

/**
 * What CPU activation offload costs a micro-batch (Megatron's --cpu-offloading, Transformer Engine's CPU offload
 * context): each offloaded layer's activations (B bytes per micro-batch, {@link MemoryModel#perLayerBytes}) go to host
 * memory over the GPU's host link ({@link Links#hostPerDirection}: PCIe, or NVLink-C2C on a Grace superchip) during the
 * forward pass and come back during the backward pass, each direction at the link's per-direction rate × the catalog's
 * {@code pcie} efficiency, overlapped with the compute of the offloaded
 * layers (TE copies on a side stream): forward a third of a layer's time, backward two thirds. Exposed per micro-batch:
 * {@code max(0, n·B/rate − n·t/3) + max(0, n·B/rate − 2·n·t/3)}, t one layer's forward and backward time.
 * {@link #price} returns the term ({@link Term.Offload#exposed} its seconds): the estimate adds it to its breakdown, the
 * search's score reads the seconds alone.
 */
final class OffloadCost {
    private OffloadCost() {}

    /** The offloaded layers' copies on {@code stage} at {@code layerS} a layer; null when the stage offloads none. */
    static Term.Offload price(ModelShape m, Layout l, int stage, double layerS, Hardware hw) {
        double n = MemoryModel.offloadedLayers(m, l, stage);
        if (n <= 0) return null;
        double bytes = n * MemoryModel.perLayerBytes(m, l);
        double link = hw.links().hostPerDirection(), rate = link * hw.efficiency().pcie();
        double copy = bytes / rate, forward = n * layerS / 3, backward = n * layerS * 2 / 3;
        double exposed = Math.max(0, copy - forward) + Math.max(0, copy - backward);
        return new Term.Offload(n, bytes, hw.links().hostLinkName(), rate, link, hw.efficiency().pcie(),
                copy, forward, backward, exposed);
    }
}
