def log = new File(basedir, 'build.log').text
assert log.contains('[ERROR] ' + new File(basedir, 'lab.topo').canonicalPath + ':7:23: error: node group \'pcie\' declares NVSwitch for A100-PCIe-80GB')
assert log.contains('gpulint: 1 error, 0 warnings, 0 notes in 1 file')
return true
