package dev.gpulint.facts;

/**
 * The environment variables the NCCL rules test ({@link EnvFact#getVariable()}): NCCL's and libfabric's, named as
 * they are spelt; OTHER for every other name.
 */
public enum NcclVariable {
    NCCL_IB_DISABLE, NCCL_P2P_DISABLE, NCCL_P2P_LEVEL, NCCL_NET_GDR_LEVEL, NCCL_SOCKET_IFNAME, NCCL_IB_TC,
    NCCL_CROSS_NIC, NCCL_IB_HCA, NCCL_IB_GID_INDEX,
    /** libfabric's EFA provider: whether it uses GPUDirect RDMA. */
    FI_EFA_USE_DEVICE_RDMA,
    /** Any other name. */
    OTHER;

    /** The variable spelt {@code name} exactly (names are case-sensitive); OTHER for any other. */
    public static NcclVariable of(String name) {
        for (NcclVariable v : values()) if (v != OTHER && v.name().equals(name)) return v;
        return OTHER;
    }
}
