#pragma once
/// Initial positions and velocities of one object from its "initial" section.
#include "scene/scene_config.hpp"

namespace simrun {

/// Rotates each vertex about the axis line through the bounding-box center by
/// angle * (s - s_min) / (s_max - s_min), s the coordinate along the axis (interface contract).
void apply_twist(MatX3& x, const TwistConfig& twist);

/// Scales coordinates along `scale.axis` by `scale.factor` about the -axis end (stretch or
/// compression; the -axis end stays).
void apply_axial_scale(MatX3& x, const AxialScaleConfig& scale);

/// v_i = velocity + omega x (X_i - c), c the center of mass (nodal masses `mass`, one per vertex).
MatX3 initial_velocities(const MatX3& x, const VecX& mass, const InitialConfig& initial);

}  // namespace simrun
