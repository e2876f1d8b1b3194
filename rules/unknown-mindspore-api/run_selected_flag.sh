#!/bin/bash
# The launch script of bad_selected_flag.py: it turns the flag on.
python bad_selected_flag.py --use_attention
