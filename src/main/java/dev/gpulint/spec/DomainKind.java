package dev.gpulint.spec;

/**
 * What joins the GPUs of one scale-up domain, as used for placement: a node's NVSwitch or NVLink
 * mesh (NODE), a multi-node NVLink rack such as GB200 NVL72 (RACK), NVLink bridges joining pairs or
 * quads of PCIe cards (BRIDGE), AMD Infinity Fabric (xGMI) joining the GPUs of one Instinct platform
 * all-to-all (INFINITY_FABRIC: MI300X, MI325X), nothing but PCIe (NONE), or not known (UNKNOWN: the
 * GPU model is not in the catalog and the manifest says nothing about NVLink).
 */
public enum DomainKind { NODE, RACK, BRIDGE, INFINITY_FABRIC, NONE, UNKNOWN }
