package dev.gpulint.spec;

/**
 * What joins the GPUs of one NVLink domain, as used for placement: a node's NVSwitch or NVLink
 * mesh (NODE), a multi-node NVLink rack such as GB200 NVL72 (RACK), NVLink bridges joining pairs or
 * quads of PCIe cards (BRIDGE), nothing but PCIe (NONE), or not known (UNKNOWN: the GPU model is not
 * in the catalog and the manifest says nothing about NVLink).
 */
public enum DomainKind { NODE, RACK, BRIDGE, NONE, UNKNOWN }
