# rbdgen_add_robot(NAME URDF|MODEL <file> [FLOATING_BASE] [STRICT_INERTIA] [TRIG_ENTRY_POINTS] [NO_DRIVERS] [PYTHON]
#                  [SCALAR double|float] [KERNELS k1 k2 ...] [PROBLEMS id|fd|FILE.yaml ...]
#                  [NCMTM_ORDER N] [EXTERNAL_FORCES link1 link2 ...|all] [FRAMES link1 link2 ...]
#                  [PARAMETERS link1 link2 ...] [ARMATURE joint=value ...] [MEASURE] [KEEP_DIVISIONS] [LANES] [BATCH W]
#                  [EMISSION straight|compact|uniform|auto] [SNAP_TOLERANCE T] [SNAP_MAX_EFFECT E]
#                  [METHOD kernel=method ...] [UNITY] [COMPILE_OPTIONS ...])
#
# BATCH W (2, 4 or 8) also emits batch::<kernel> of every kernel, W states a call in structure of
# arrays on GCC's and Clang's vector extensions (docs/emission.md, "Batched kernels"); build with the target's
# vector width (e.g. COMPILE_OPTIONS -O2 -mavx2 -mfma) for throughput.
# EMISSION chooses how kernels are written (docs/emission.md): straight-line code, compact (a function
# a kind of step, called from tables: small code that stays in an instruction cache), uniform (compact
# with the placements and inertias as table values, so that the bodies of one joint type share a
# function: the least code, more operations) or auto (the default: compact for kernels of more than
# 2000 operations).
# SNAP_TOLERANCE T and SNAP_MAX_EFFECT E (rbdgen generate's --snap-tolerance and --snap-max-effect,
# docs/kernels.md): a joint's rotation, translation or axis within T (default 1e-7) of 0 or ±1 is
# made exact only when that changes no kernel's output by more than E (default 1e-10) relative.
# SNAP_MAX_EFFECT 0 keeps every constant as the file gives it; a larger E trades exactness for speed.
# METHOD kernel=method ... (rbdgen generate's --method): how a kernel of several methods computes
# (minv, aba_derivatives: ltdl or articulated-body) in place of the generator's choice for the robot.
# UNITY compiles the robot's kernel files as one translation unit (CMake's UNITY_BUILD): each file's
# names and sections are its own, so they do not collide. A robot of many small kernels then builds in
# 2 to 3 times less time (the compiler's start and <cmath> once, not once a kernel; docs/build.md).
# Each kernel keeps its sections, but the runtime's functions (rbdgen_runtime.hpp, included once) go
# to the first kernel's, so warm() of another kernel no longer brings them in.
# KEEP_DIVISIONS emits every division as written (no shared reciprocals; for x86-64 targets).
# LANES runs the compact kernels' like steps of independent limbs as the lanes of one vector call
# (docs/emission.md, "Lane calls"): for builds with AVX (-march=native, -mavx2); larger code.
# MEASURE compiles each kernel once more at generation, with the project's C++ compiler at -Os, and
# writes its machine code and worst stack frame into report.json ("host_build") and report.md.
# NCMTM_ORDER N adds the N-CMTM kernels of order N (1 to 12, docs/ncmtm.md):
# ncmtm_fk, cornea and ncmtm_fd, or those of them KERNELS names; the Jacobians ncmtm_jacobian and
# ncmtm_torque_jacobian when KERNELS names them.
# EXTERNAL_FORCES gives rnea, aba and fd_crba_ltdl an input f_ext: the wrench on each of these links
# (all: every body's own link), [torque; force] in the link's URDF frame about its origin.
# PARAMETERS keeps the inertial parameters of these links as the dynamics kernels' input pi (a payload).
# FRAMES adds operational frames: fk also returns their poses, and the kernels frame_jacobians,
# frame_jacobians_dot, frame_motion and frame_motion_derivatives (docs/kernels.md).
# PYTHON also builds the robot's Python module (target NAME_python, module NAME: every kernel a
# function of NumPy arrays, one state or many; docs/build.md, "Python").
# PROBLEMS adds problems on Nori's sparse system solved by a static-pivot LU (docs/problems.md): id,
# fd, contact:LINK[:point],... and impulse:LINK[:point],... (constrained dynamics and impacts, kernels
# contact_* and impulse_*), or a problem file whose name (without .yaml) names its kernels; an edit of
# the file regenerates. Constrained dynamics and impacts also get <problem>_aba, the same solved by
# the articulated-body algorithm (docs/problems.md, "Contacts"), and <problem>_derivatives, its
# derivatives (docs/derivatives.md).
#
# Generates the robot's kernels at build time (again whenever the URDF or the generator changes) and
# builds three targets:
#   NAME        static library of the generated kernels; include "NAME.hpp"
#   NAME_eval   reads a STATE.json on stdin, prints the JSON of `rbdgen eval` from the kernels
#   NAME_bench  times every kernel: "<kernel> <median> ns/call (min <min>)"
# The two drivers are host programs: they are left out when cross-compiling (CMAKE_CROSSCOMPILING,
# e.g. a firmware project with an arm-none-eabi toolchain file) or with NO_DRIVERS; the generator
# always runs on the build host. Everything built here (the kernels, the drivers and the eval
# driver's STATE.json reader) is compiled in the calling project with its own flags, so a project
# built with -march=native, or for another target, links nothing that was compiled for another.
# The generated sources go to ${CMAKE_CURRENT_BINARY_DIR}/rbdgen/NAME. COMPILE_OPTIONS replace the
# kernels' default -Os: for straight-line kernels it gave 5-7% less machine code than -O2 and ran as
# fast or faster (g++ 12, x86-64, interleaved runs: arm7 RNEA 294 -> 278 ns, ABA 689 -> 646 ns, CRBA
# equal; humanoid RNEA 1224 -> 1161 ns, CRBA 1607 -> 1550 ns, ABA 3006 -> 2850 ns).
#
# Needs the rbdgen generator (find_package(rbdgen) or add_subdirectory of rbdgen) and, for the eval
# driver only, Eigen3 and nlohmann_json (Debian: libeigen3-dev, nlohmann-json3-dev).

# Where the eval driver's STATE.json reader lives: rbdgen's source tree, or an installed prefix
# (set by rbdgenConfig.cmake before it includes this file).
if(NOT RBDGEN_STATE_SOURCE)
  get_filename_component(RBDGEN_STATE_SOURCE "${CMAKE_CURRENT_LIST_DIR}/../../generator/cli/state.cpp" ABSOLUTE)
  get_filename_component(RBDGEN_STATE_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../../generator" ABSOLUTE)
endif()

# The STATE.json reader of every eval driver, built once in the calling project with its flags: it
# passes Eigen types to the driver, whose layout and alignment depend on those flags.
function(_rbdgen_eval_state_library)
  if(TARGET rbdgen_eval_state)
    return()
  endif()
  if(NOT TARGET Eigen3::Eigen)
    find_package(Eigen3 NO_MODULE)
  endif()
  if(NOT TARGET nlohmann_json::nlohmann_json)
    find_package(nlohmann_json)
  endif()
  if(NOT TARGET Eigen3::Eigen OR NOT TARGET nlohmann_json::nlohmann_json)
    message(FATAL_ERROR "rbdgen_add_robot: the eval drivers need Eigen3 and nlohmann_json (Debian: libeigen3-dev, "
                        "nlohmann-json3-dev); install them, or pass NO_DRIVERS to build the kernels alone")
  endif()
  add_library(rbdgen_eval_state STATIC EXCLUDE_FROM_ALL "${RBDGEN_STATE_SOURCE}")
  target_include_directories(rbdgen_eval_state PUBLIC "${RBDGEN_STATE_INCLUDE_DIR}")
  target_compile_features(rbdgen_eval_state PUBLIC cxx_std_17)
  target_link_libraries(rbdgen_eval_state PUBLIC Eigen3::Eigen nlohmann_json::nlohmann_json)
endfunction()

# RBDGEN_KERNELS and RBDGEN_ON_REQUEST_KERNELS: the generator's kernels, by default and only when named,
# read from its kernel specs (rbdgen's generator/CMakeLists.txt, or rbdgenConfig.cmake after install).

function(rbdgen_add_robot NAME)
  cmake_parse_arguments(R "FLOATING_BASE;STRICT_INERTIA;TRIG_ENTRY_POINTS;NO_DRIVERS;MEASURE;KEEP_DIVISIONS;LANES;PYTHON;UNITY" "URDF;MODEL;SCALAR;NCMTM_ORDER;BATCH;EMISSION;SNAP_TOLERANCE;SNAP_MAX_EFFECT" "KERNELS;PROBLEMS;COMPILE_OPTIONS;EXTERNAL_FORCES;FRAMES;PARAMETERS;ARMATURE;METHOD" ${ARGN})
  # MODEL: the robot's file in any format rbdgen reads (URDF, MJCF, SDFormat: recognised by its root element)
  if(R_MODEL AND R_URDF)
    message(FATAL_ERROR "rbdgen_add_robot(${NAME}): give the robot's file once, with URDF <file> or MODEL <file>")
  endif()
  if(R_MODEL)
    set(R_URDF "${R_MODEL}")
  endif()
  if(NOT R_URDF)
    message(FATAL_ERROR "rbdgen_add_robot(${NAME}): give the robot's file with MODEL <file> (URDF, MJCF or SDFormat)")
  endif()
  get_filename_component(urdf "${R_URDF}" ABSOLUTE)
  if(NOT EXISTS "${urdf}")
    message(FATAL_ERROR "rbdgen_add_robot(${NAME}): the robot's file '${urdf}' does not exist")
  endif()
  if(NOT R_SCALAR)
    set(R_SCALAR double)
  endif()
  set(frame_kernels frame_jacobians frame_jacobians_dot frame_motion frame_motion_derivatives)
  if(NOT R_KERNELS)
    set(R_KERNELS ${RBDGEN_KERNELS})
    if(R_FRAMES)
      list(APPEND R_KERNELS ${frame_kernels})
    endif()
  endif()
  # The N-CMTM kernels (with NCMTM_ORDER): those KERNELS names, or the first three when it names none
  # (the Jacobians only when named).
  set(ncmtm_all ncmtm_fk cornea ncmtm_fd ncmtm_jacobian ncmtm_torque_jacobian)
  set(ncmtm_kernels "")
  set(fixed_kernels "")
  foreach(k ${R_KERNELS})
    if(k IN_LIST ncmtm_all AND DEFINED R_NCMTM_ORDER)
      list(APPEND ncmtm_kernels ${k})
    elseif((k IN_LIST frame_kernels AND R_FRAMES) OR k IN_LIST RBDGEN_ON_REQUEST_KERNELS)
      list(APPEND fixed_kernels ${k})
    elseif(NOT k IN_LIST RBDGEN_KERNELS)
      message(FATAL_ERROR "rbdgen_add_robot(${NAME}): unknown kernel '${k}'; the kernels are ${RBDGEN_KERNELS}, ${RBDGEN_ON_REQUEST_KERNELS} (and ${ncmtm_all} with NCMTM_ORDER)")
    else()
      list(APPEND fixed_kernels ${k})
    endif()
  endforeach()
  if(NOT ncmtm_kernels)
    set(ncmtm_kernels ncmtm_fk cornea ncmtm_fd)
  endif()

  set(out "${CMAKE_CURRENT_BINARY_DIR}/rbdgen/${NAME}")
  set(kernel_sources "")
  foreach(k ${fixed_kernels})
    list(APPEND kernel_sources "${out}/${NAME}_${k}.cpp")
  endforeach()
  set(problem_flags "")
  set(problem_files "")
  foreach(p ${R_PROBLEMS})
    if(p STREQUAL "id" OR p STREQUAL "fd")
      set(problem ${p})
    elseif(p MATCHES "^(contact|impulse):")
      set(problem ${CMAKE_MATCH_1})
    else()
      get_filename_component(file "${p}" ABSOLUTE)
      if(NOT EXISTS "${file}")
        message(FATAL_ERROR "rbdgen_add_robot(${NAME}): PROBLEMS: '${p}' is neither id, fd nor an existing problem file")
      endif()
      get_filename_component(problem "${file}" NAME_WE)
      list(APPEND problem_files "${file}")
      set(p "${file}")
    endif()
    list(APPEND problem_flags --problem "${p}")
    foreach(step lu assemble factor solve)
      list(APPEND kernel_sources "${out}/${NAME}_${problem}_${step}.cpp")
    endforeach()
    if(NOT p STREQUAL "id" AND NOT p STREQUAL "fd")
      # the articulated-body solve and its derivatives (a comment alone where the problem has none)
      list(APPEND kernel_sources "${out}/${NAME}_${problem}_aba.cpp" "${out}/${NAME}_${problem}_derivatives.cpp")
    endif()
  endforeach()
  if(DEFINED R_NCMTM_ORDER)
    if(NOT R_NCMTM_ORDER MATCHES "^[0-9]+$" OR R_NCMTM_ORDER LESS 1 OR R_NCMTM_ORDER GREATER 12)
      message(FATAL_ERROR "rbdgen_add_robot(${NAME}): NCMTM_ORDER '${R_NCMTM_ORDER}' is out of range; use an order from 1 to 12")
    endif()
    list(APPEND problem_flags --ncmtm-order ${R_NCMTM_ORDER})
    foreach(k ${ncmtm_kernels})
      list(APPEND kernel_sources "${out}/${NAME}_${k}.cpp")
    endforeach()
  endif()
  set(outputs "${out}/${NAME}.hpp" ${kernel_sources} "${out}/rbdgen_runtime.hpp" "${out}/${NAME}_eval.cpp"
      "${out}/${NAME}_bench.cpp" "${out}/report.md" "${out}/report.json")
  set(flags "")
  if(R_FLOATING_BASE)
    list(APPEND flags --floating-base)
  endif()
  if(R_STRICT_INERTIA)
    list(APPEND flags --strict-inertia)
  endif()
  if(R_TRIG_ENTRY_POINTS)
    list(APPEND flags --trig-entry-points)
  endif()
  if(R_KEEP_DIVISIONS)
    list(APPEND flags --keep-divisions)
  endif()
  if(R_LANES)
    list(APPEND flags --lanes)
  endif()
  if(R_BATCH)
    list(APPEND flags --batch ${R_BATCH})
  endif()
  if(R_EMISSION)
    list(APPEND flags --emission ${R_EMISSION})
  endif()
  if(DEFINED R_SNAP_TOLERANCE)
    list(APPEND flags --snap-tolerance ${R_SNAP_TOLERANCE})
  endif()
  if(DEFINED R_SNAP_MAX_EFFECT)
    list(APPEND flags --snap-max-effect ${R_SNAP_MAX_EFFECT})
  endif()
  if(R_MEASURE)
    list(APPEND flags --measure ${CMAKE_CXX_COMPILER})
  endif()
  if(R_EXTERNAL_FORCES)
    string(REPLACE ";" "," wrench_links "${R_EXTERNAL_FORCES}")
    list(APPEND flags --external-forces "${wrench_links}")
  endif()
  if(R_FRAMES)
    string(REPLACE ";" "," frame_links "${R_FRAMES}")
    list(APPEND flags --frames "${frame_links}")
  endif()
  if(R_ARMATURE)  # joint=value ...: the rotors' inertias a URDF has no field for
    string(REPLACE ";" "," armature "${R_ARMATURE}")
    list(APPEND flags --armature "${armature}")
  endif()
  if(R_METHOD)
    string(REPLACE ";" "," methods "${R_METHOD}")
    list(APPEND flags --method "${methods}")
  endif()
  if(R_PARAMETERS)
    string(REPLACE ";" "," payload_links "${R_PARAMETERS}")
    list(APPEND flags --parameters "${payload_links}")
  endif()
  if(R_PYTHON)
    list(APPEND flags --python)
    list(APPEND outputs "${out}/${NAME}_python.cpp" "${out}/rbdgen_python.hpp")
  endif()
  string(REPLACE ";" "," kernel_list "${R_KERNELS}")
  # The generator: rbdgen's own target in its tree (or via add_subdirectory), else the imported one.
  if(TARGET rbdgen)
    set(RBDGEN_EXECUTABLE $<TARGET_FILE:rbdgen>)
    set(generator_dependency rbdgen)
  elseif(TARGET rbdgen::rbdgen)
    set(RBDGEN_EXECUTABLE $<TARGET_FILE:rbdgen::rbdgen>)
    set(generator_dependency rbdgen::rbdgen)
  else()
    message(FATAL_ERROR "rbdgen_add_robot(${NAME}): no rbdgen generator; use find_package(rbdgen) or add_subdirectory(rbdgen)")
  endif()
  # The files the robot's file includes (MJCF's <include>): the generator lists them in NAME.d, whose
  # target is the header, the first output; Ninja and Makefiles read it (CMake 3.20).
  set(depfile "")
  if(CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
    list(APPEND flags --depfile)
    set(depfile DEPFILE "${out}/${NAME}.d")
  endif()
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND "${RBDGEN_EXECUTABLE}" generate "${urdf}" -o "${out}" --name ${NAME} --scalar ${R_SCALAR}
            --kernels ${kernel_list} ${flags} ${problem_flags}
    DEPENDS "${urdf}" ${problem_files} ${generator_dependency}
    ${depfile}
    COMMENT "rbdgen: generating ${NAME} from ${R_URDF}"
    VERBATIM)

  add_library(${NAME} STATIC ${kernel_sources})
  target_include_directories(${NAME} PUBLIC "${out}")
  target_compile_features(${NAME} PUBLIC cxx_std_17)
  if(NOT R_COMPILE_OPTIONS)
    set(R_COMPILE_OPTIONS -Os)
  endif()
  target_compile_options(${NAME} PRIVATE ${R_COMPILE_OPTIONS})
  if(R_UNITY)
    set_target_properties(${NAME} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE BATCH UNITY_BUILD_BATCH_SIZE 0)
  endif()
  # The Python module NAME (target NAME_python): pybind11 and NumPy from Debian (python3-dev,
  # pybind11-dev, python3-numpy), for Debian's python3 unless Python_EXECUTABLE says otherwise.
  if(R_PYTHON)
    if(NOT Python_EXECUTABLE AND EXISTS /usr/bin/python3)
      set(Python_EXECUTABLE /usr/bin/python3)
    endif()
    find_package(Python COMPONENTS Interpreter Development.Module REQUIRED)
    find_package(pybind11 CONFIG REQUIRED)
    set_target_properties(${NAME} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    pybind11_add_module(${NAME}_python MODULE NO_EXTRAS "${out}/${NAME}_python.cpp")  # no LTO: the kernels are a static library
    set_target_properties(${NAME}_python PROPERTIES OUTPUT_NAME ${NAME})
    find_package(Threads REQUIRED)  # threads= of the module's calls
    target_link_libraries(${NAME}_python PRIVATE ${NAME} Threads::Threads)
  endif()

  # Host programs: not for a cross-compiled (firmware) project. Their sources are still generated.
  if(R_NO_DRIVERS OR CMAKE_CROSSCOMPILING)
    return()
  endif()
  _rbdgen_eval_state_library()
  add_executable(${NAME}_eval "${out}/${NAME}_eval.cpp")
  target_link_libraries(${NAME}_eval PRIVATE ${NAME} rbdgen_eval_state)
  add_executable(${NAME}_bench "${out}/${NAME}_bench.cpp")
  target_link_libraries(${NAME}_bench PRIVATE ${NAME})
endfunction()
