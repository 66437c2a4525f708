s|docs/performance.md|docs/figures.md|g
s|spec/vmaf_adm.md|spec/adm.md|g
s|spec/vmaf_vif.md|spec/vif.md|g
s|spec/vmaf_motion.md|spec/motion.md|g
s|spec/vmaf_model.md|spec/vmaf.md|g
s|docs/spec/raster_sum.md, "Layout"|docs/architecture.md, "The raster-order sum on devices"|g
