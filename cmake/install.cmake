# Installation and the exported package (find_package(grb)) are set up here.
